import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

interface FieldProps {
  id: string;
  label: string;
  /** Shown under the field and announced with it; the field is marked invalid while there is one. */
  error?: string | undefined;
}

function FieldFrame({ id, label, error, children }: FieldProps & { children: ReactNode }) {
  return (
    <div className="portal-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <p id={`${id}-error`} className="portal-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, error: string | undefined) => ({
  'aria-invalid': Boolean(error),
  'aria-describedby': error ? `${id}-error` : undefined,
});

/** A labelled input with its error message. */
export function TextField({ id, label, error, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame id={id} label={label} error={error}>
      <input id={id} {...input} {...describedBy(id, error)} />
    </FieldFrame>
  );
}

/** A labelled text area with its error message. */
export function TextAreaField({ id, label, error, ...textarea }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame id={id} label={label} error={error}>
      <textarea id={id} {...textarea} {...describedBy(id, error)} />
    </FieldFrame>
  );
}

/** A labelled password input that hands its new value, not the change event, to `onValueChange`. */
export function PasswordField({
  onValueChange,
  ...field
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> & { onValueChange: (value: string) => void }) {
  return <TextField {...field} type="password" onChange={(e) => onValueChange(e.target.value)} />;
}
