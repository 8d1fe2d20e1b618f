import { useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { useHydrated } from '@/components/use-hydrated.ts';
import { BusyButton } from '../components/busy-button.tsx';
import { FormError } from '../components/form-error.tsx';
import { Popup } from '../components/popup.tsx';
import { TextField } from '../components/text-field.tsx';

/** The error and busy state of an auth form. `run` clears the error and keeps the form busy while `task` runs. */
export function useFormStatus() {
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const run = async (task: () => Promise<void>) => {
    setError(null);
    setSubmitting(true);
    try {
      await task();
    } finally {
      setSubmitting(false);
    }
  };
  return { error, setError, submitting, run };
}

interface AuthFormProps {
  /** The form's accessible name. */
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  status: { error: string | null; submitting: boolean };
  /** The submit button's text, and its text while the call is under way. */
  submitText: string;
  busyText: string;
  /** The link-styled button under the submit button (Back, Forgot Password?). */
  secondary: { text: string; onClick: () => void };
  /** What follows the buttons, inside the form. */
  aside?: ReactNode;
  /** The confirmation shown once the call succeeded. */
  popup?: { message: string; onClose: () => void } | null;
  children: ReactNode;
}

/** The frame the login page's three forms share: fields, the form's error, the two buttons, the confirmation. */
export function AuthForm({ label, onSubmit, status, submitText, busyText, secondary, aside, popup, children }: AuthFormProps) {
  // /login is prerendered: until its handlers are attached, neither button may act (see useHydrated).
  const hydrated = useHydrated();
  return (
    <>
      <form className="portal-form" onSubmit={onSubmit} noValidate aria-label={label}>
        {children}
        <FormError message={status.error} />
        <BusyButton className="btn btn--primary portal-btn-block" busy={status.submitting} busyText={busyText} disabled={!hydrated}>
          {submitText}
        </BusyButton>
        <button type="button" className="portal-link-button" onClick={secondary.onClick} disabled={!hydrated}>
          {secondary.text}
        </button>
        {aside}
      </form>
      {popup && <Popup message={popup.message} onClose={popup.onClose} />}
    </>
  );
}

/** The account's e-mail, as the login and Forgot Password forms ask for it; `onValueChange` gets the new text. */
export function EmailField({ onValueChange, ...field }: Omit<ComponentProps<typeof TextField>, 'label' | 'onChange'> & { onValueChange: (value: string) => void }) {
  return <TextField label="Email" name="email" type="email" autoComplete="username" onChange={(e) => onValueChange(e.target.value)} {...field} />;
}
