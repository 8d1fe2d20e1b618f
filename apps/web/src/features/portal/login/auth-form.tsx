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

/**
 * The words of one of the login page's forms: the form's accessible name, the hint above its fields, the submit
 * button's text and its text while the call is under way, and the link-styled button under it.
 */
interface AuthFormText {
  label: string;
  hint?: string;
  submit: string;
  busy: string;
  secondary: string;
}

const AUTH_FORM_TEXT: Record<'login' | 'forgot' | 'reset', AuthFormText> = {
  login: { label: 'User Login', submit: 'Login', busy: 'Logging in…', secondary: 'Forgot Password?' },
  forgot: {
    label: 'Forgot Password',
    hint: 'Enter the email of your account and we will send you instructions.',
    submit: 'Reset Password',
    busy: 'Sending…',
    secondary: 'Back',
  },
  reset: {
    label: 'Set a new password',
    hint: 'Choose a new password of at least 10 characters.',
    submit: 'Set New Password',
    busy: 'Saving…',
    secondary: 'Back',
  },
};

interface AuthFormProps {
  /** Which of the three forms, for its words. */
  form: keyof typeof AUTH_FORM_TEXT;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  status: { error: string | null; submitting: boolean };
  /** What the link-styled button under the submit button does (Back, Forgot Password?). */
  onSecondary: () => void;
  /** What follows the buttons, inside the form. */
  aside?: ReactNode;
  /** The confirmation shown once the call succeeded. */
  popup?: { message: string; onClose: () => void } | null;
  children: ReactNode;
}

/** The frame the login page's three forms share: fields, the form's error, the two buttons, the confirmation. */
export function AuthForm({ form, onSubmit, status, onSecondary, aside, popup, children }: AuthFormProps) {
  const text = AUTH_FORM_TEXT[form];
  // /login is prerendered: until its handlers are attached, neither button may act (see useHydrated).
  const hydrated = useHydrated();
  return (
    <>
      <form className="portal-form" onSubmit={onSubmit} noValidate aria-label={text.label}>
        {text.hint && <p className="portal-auth__hint">{text.hint}</p>}
        {children}
        <FormError message={status.error} />
        <BusyButton className="btn btn--primary portal-btn-block" busy={status.submitting} busyText={text.busy} disabled={!hydrated}>
          {text.submit}
        </BusyButton>
        <button type="button" className="portal-link-button" onClick={onSecondary} disabled={!hydrated}>
          {text.secondary}
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
