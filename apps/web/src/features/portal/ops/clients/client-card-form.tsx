import type { FormEvent, ReactNode } from 'react';
import { Notice, type NoticeText } from '../../components/notice.tsx';

interface ClientCardFormProps {
  /** The form's accessible name ("Add an origin"). */
  label: string;
  className?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** While a call runs the submit button cannot be pressed. */
  busy: boolean;
  submitText: string;
  /** Buttons after the submit button. */
  extra?: ReactNode;
  /** The card's last outcome (useCardNotice), shown under the form. */
  notice: NoticeText | null;
  /** The fields. */
  children: ReactNode;
}

/** The form at the foot of a client card: its fields, its submit button, then the card's last outcome. */
export function ClientCardForm({ label, className = 'ops-inline-form', onSubmit, busy, submitText, extra, notice, children }: ClientCardFormProps) {
  return (
    <>
      <form className={className} onSubmit={onSubmit} noValidate aria-label={label}>
        {children}
        <button type="submit" className="btn btn--primary portal-btn-sm" disabled={busy}>
          {submitText}
        </button>
        {extra}
      </form>
      {notice && (
        <Notice tone={notice.tone} style={{ marginTop: 12 }}>
          {notice.text}
        </Notice>
      )}
    </>
  );
}
