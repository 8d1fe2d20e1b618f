import type { ButtonHTMLAttributes } from 'react';

interface BusyButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** While the call runs the button reads `busyText` and cannot be pressed again. */
  busy: boolean;
  busyText: string;
}

/** A button that starts a call (a form's submit, unless `type` says otherwise) and shows while it is busy. */
export function BusyButton({ busy, busyText, type = 'submit', className = 'btn btn--primary', disabled, children, ...button }: BusyButtonProps) {
  return (
    <button type={type} className={className} disabled={busy || disabled} {...button}>
      {busy ? busyText : children}
    </button>
  );
}

/** A form's only action, alone in its row: the submit button. */
export function SubmitRow(props: BusyButtonProps) {
  return (
    <div className="portal-actions">
      <BusyButton {...props} />
    </div>
  );
}
