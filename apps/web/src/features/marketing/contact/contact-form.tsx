import { useEffect, useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useHydrated } from '@/components/use-hydrated.ts';
import { captchaMatches, generateCaptcha } from '@/lib/captcha.ts';
import { CaptchaBox } from './captcha-box.tsx';
import {
  CONTACT_MESSAGES,
  contactEmail,
  contactMailto,
  validateContact,
  type ContactErrors,
  type ContactForm as ContactFormValues,
} from './contact-form-model.ts';
import { LazyPhoneField } from './lazy-phone-field.tsx';

const EMPTY: ContactFormValues = { name: '', phone: '', message: '', captcha: '' };
const FIELD_ORDER = ['name', 'phone', 'message', 'captcha'] as const;
type Field = (typeof FIELD_ORDER)[number];

export function ContactForm() {
  // The page is prerendered: until hydrated, what is typed would not reach the form's state and a submit would
  // be the browser's own GET (see useHydrated); the fields are read-only and the button disabled until then.
  const hydrated = useHydrated();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<ContactErrors>({});
  // Drawn after mount: a code in the prerendered HTML would be the same for every visitor.
  const [captcha, setCaptcha] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const uid = useId();
  const ids = Object.fromEntries(FIELD_ORDER.map((f) => [f, `${uid}-${f}`])) as Record<Field, string>;

  useEffect(() => setCaptcha(generateCaptcha()), []);

  const set = (field: keyof ContactFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const newCaptcha = () => {
    setCaptcha(generateCaptcha());
    setValues((v) => ({ ...v, captcha: '' }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateContact(values);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((f) => found[f]);
    if (firstInvalid) {
      document.getElementById(ids[firstInvalid])?.focus();
      return;
    }
    if (!captchaMatches(values.captcha.trim(), captcha)) {
      window.alert(CONTACT_MESSAGES.captchaMismatch);
      newCaptcha();
      document.getElementById(ids.captcha)?.focus();
      return;
    }
    const href = contactMailto(contactEmail(), values);
    setSentTo(href);
    newCaptcha();
    window.location.href = href;
  };

  const describe = (field: Field) => (errors[field] ? `${ids[field]}-error` : undefined);
  /** What every text control of the form takes: its id, name, value, change handler and error link. */
  const bind = (field: Field) => ({
    id: ids[field],
    name: field,
    value: values[field],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(field)(e.target.value),
    readOnly: !hydrated,
    'aria-invalid': Boolean(errors[field]),
    'aria-describedby': describe(field),
  });
  const field = (name: Field, label: string, control: ReactNode) => (
    <div className="field">
      <label htmlFor={ids[name]}>{label}</label>
      {control}
      {errors[name] && (
        <p className="field__error" id={`${ids[name]}-error`}>
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <form id="form-section" className="contact-form card" noValidate onSubmit={onSubmit} aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">Send us a message</h2>
      <p className="form-note">All fields are required.</p>
      {field('name', 'Name', <input {...bind('name')} autoComplete="name" />)}
      {field(
        'phone',
        'Phone number',
        <LazyPhoneField id={ids.phone} value={values.phone} onChange={set('phone')} invalid={Boolean(errors.phone)} describedBy={describe('phone')} />,
      )}
      {field('message', 'Message', <textarea {...bind('message')} rows={5} />)}
      {field(
        'captcha',
        'Enter the CAPTCHA code',
        <div className="captcha-row">
          <CaptchaBox code={captcha} onRefresh={newCaptcha} />
          <input {...bind('captcha')} autoComplete="off" autoCapitalize="off" spellCheck={false} maxLength={6} />
        </div>,
      )}
      <button type="submit" className="btn btn--primary contact-form__submit" disabled={!hydrated}>
        Send message
      </button>
      <div role="status" className="form-status">
        {sentTo && (
          <p>
            Thank you! Your mail app should open with your message. If it did not,{' '}
            <a href={sentTo} data-testid="mailto-link">
              send it from here
            </a>
            .
          </p>
        )}
      </div>
    </form>
  );
}
