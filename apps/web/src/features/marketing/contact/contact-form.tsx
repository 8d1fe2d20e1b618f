import { useEffect, useId, useState, type FormEvent } from 'react';
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

export function ContactForm() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<ContactErrors>({});
  // Drawn after mount: a code in the prerendered HTML would be the same for every visitor.
  const [captcha, setCaptcha] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const uid = useId();
  const ids = Object.fromEntries(FIELD_ORDER.map((f) => [f, `${uid}-${f}`])) as Record<(typeof FIELD_ORDER)[number], string>;

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

  const describe = (field: keyof ContactFormValues) => (errors[field] ? `${ids[field]}-error` : undefined);
  const errorText = (field: keyof ContactFormValues) =>
    errors[field] ? (
      <p className="field__error" id={`${ids[field]}-error`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <form id="form-section" className="contact-form card" noValidate onSubmit={onSubmit} aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">Send us a message</h2>
      <p className="form-note">All fields are required.</p>
      <div className="field">
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          name="name"
          autoComplete="name"
          value={values.name}
          onChange={(e) => set('name')(e.target.value)}
          aria-invalid={Boolean(errors.name)}
          aria-describedby={describe('name')}
        />
        {errorText('name')}
      </div>
      <div className="field">
        <label htmlFor={ids.phone}>Phone number</label>
        <LazyPhoneField id={ids.phone} value={values.phone} onChange={set('phone')} invalid={Boolean(errors.phone)} describedBy={describe('phone')} />
        {errorText('phone')}
      </div>
      <div className="field">
        <label htmlFor={ids.message}>Message</label>
        <textarea
          id={ids.message}
          name="message"
          rows={5}
          value={values.message}
          onChange={(e) => set('message')(e.target.value)}
          aria-invalid={Boolean(errors.message)}
          aria-describedby={describe('message')}
        />
        {errorText('message')}
      </div>
      <div className="field">
        <label htmlFor={ids.captcha}>Enter the CAPTCHA code</label>
        <div className="captcha-row">
          <CaptchaBox code={captcha} onRefresh={newCaptcha} />
          <input
            id={ids.captcha}
            name="captcha"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={6}
            value={values.captcha}
            onChange={(e) => set('captcha')(e.target.value)}
            aria-invalid={Boolean(errors.captcha)}
            aria-describedby={describe('captcha')}
          />
        </div>
        {errorText('captcha')}
      </div>
      <button type="submit" className="btn btn--primary contact-form__submit">
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
