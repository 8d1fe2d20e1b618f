import { Notice } from './notice.tsx';

/** A form's error, announced to screen readers as soon as it appears; nothing when there is none. */
export function FormError({ message }: { message: string | null }) {
  return message ? <Notice tone="error">{message}</Notice> : null;
}
