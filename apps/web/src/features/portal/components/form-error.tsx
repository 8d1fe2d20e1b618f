/** A form's error, announced to screen readers as soon as it appears; nothing when there is none. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="portal-alert portal-alert--error" role="alert">
      {message}
    </p>
  );
}
