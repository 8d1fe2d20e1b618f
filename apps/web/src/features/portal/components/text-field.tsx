import type { ComponentProps, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { filterOptions, SelectOptions, type FilterOption } from './filter-select.tsx';

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

/** The password a user signs in with now, as the browser's password manager knows it (login, a password change). */
export function CurrentPasswordField(field: Omit<ComponentProps<typeof PasswordField>, 'autoComplete'>) {
  return <PasswordField {...field} autoComplete="current-password" />;
}

/** A labelled select of fixed choices, with a hint under it when there is one. */
export function SelectField({
  id,
  label,
  options,
  hint,
  ...select
}: Omit<FieldProps, 'error'> & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly FilterOption[]; hint?: ReactNode }) {
  return (
    <FieldFrame id={id} label={label}>
      <select id={id} {...select}>
        <SelectOptions options={options} />
      </select>
      {hint && <p className="portal-muted portal-field__hint">{hint}</p>}
    </FieldFrame>
  );
}

interface ChoiceFieldProps<V extends string> {
  id: string;
  label: string;
  /** Every value, in the order offered, each named by `labels`. */
  choices: readonly V[];
  labels: Record<V, string>;
  /** What the chosen value means, shown under the field. */
  hints?: Record<V, ReactNode>;
  value: V;
  onValueChange: (value: V) => void;
}

/** A labelled select of one of a fixed set of values (a type, a role), with what the chosen one means under it. */
export function ChoiceField<V extends string>({ id, label, choices, labels, hints, value, onValueChange }: ChoiceFieldProps<V>) {
  return (
    <SelectField
      id={id}
      label={label}
      value={value}
      // The options are `choices`: whatever is picked is one of them.
      onChange={(e) => onValueChange(e.target.value as V)}
      options={filterOptions(choices, labels)}
      hint={hints?.[value]}
    />
  );
}

/** A new password and its repetition, as a form that sets one keeps them. */
export interface NewPassword {
  password: string;
  confirm: string;
}

export const NO_NEW_PASSWORD: NewPassword = { password: '', confirm: '' };

interface NewPasswordFieldsProps {
  /** The inputs are `${id}-password` and `${id}-confirm`. */
  id: string;
  labels: { password: string; confirm: string };
  value: NewPassword;
  onChange: (value: NewPassword) => void;
  errors: { password?: string | undefined; confirm?: string | undefined };
}

/** The two fields of a new password: the password, then the same again, each with its error. */
export function NewPasswordFields({ id, labels, value, onChange, errors }: NewPasswordFieldsProps) {
  return (
    <>
      {(['password', 'confirm'] as const).map((name) => (
        <PasswordField
          key={name}
          id={`${id}-${name}`}
          label={labels[name]}
          autoComplete="new-password"
          value={value[name]}
          onValueChange={(text) => onChange({ ...value, [name]: text })}
          error={errors[name]}
        />
      ))}
    </>
  );
}
