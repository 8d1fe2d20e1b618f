import { clientRequestKind, createClientRequest, type ClientRequestKind } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { TextAreaField, TextField } from '../components/text-field.tsx';
import { useCreateRequestMutation } from './requests-api.ts';
import { KIND_LABELS } from './request-labels.ts';

type FieldErrors = Partial<Record<'kind' | 'title' | 'details', string>>;

const HINTS: Record<ClientRequestKind, string> = {
  'new-feature': 'Describe the feature, where it lives, and the scenarios you want covered.',
  'manual-test': 'Tell us what to test by hand and on which devices or browsers.',
  retest: 'Name the issue and the deployment it was fixed in; retests within scope are free.',
};

export function RequestForm() {
  const [kind, setKind] = useState<ClientRequestKind>('new-feature');
  const [title, setTitle] = useState('');
  const [details, setDetails] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [create, { isLoading }] = useCreateRequestMutation();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = createClientRequest.safeParse({ kind, title, details });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        next[field] ??= issue.message.charAt(0).toUpperCase() + issue.message.slice(1) + '.';
      }
      setErrors(next);
      setNotice(null);
      return;
    }
    setErrors({});
    try {
      await create(parsed.data).unwrap();
      setTitle('');
      setDetails('');
      setNotice({ tone: 'success', text: 'Request sent. We will get back to you within 48 hours.' });
    } catch (error) {
      const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : 'Please try again later.';
      setNotice({ tone: 'error', text: `Could not send the request: ${message}` });
    }
  }

  return (
    <form className="portal-card portal-form" onSubmit={onSubmit} noValidate aria-labelledby="request-form-title">
      <h2 id="request-form-title" className="portal-card__title">
        New request
      </h2>
      <div className="portal-field">
        <label htmlFor="request-kind">Type</label>
        <select id="request-kind" value={kind} onChange={(e) => setKind(clientRequestKind.parse(e.target.value))}>
          {clientRequestKind.options.map((option) => (
            <option key={option} value={option}>
              {KIND_LABELS[option]}
            </option>
          ))}
        </select>
        <p className="portal-muted portal-field__hint">{HINTS[kind]}</p>
      </div>
      <TextField id="request-title" label="Title" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} error={errors.title} />
      <TextAreaField
        id="request-details"
        label="Details"
        rows={5}
        value={details}
        maxLength={5000}
        onChange={(e) => setDetails(e.target.value)}
        error={errors.details}
      />
      {notice && (
        <p className={`portal-alert portal-alert--${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
      <div className="portal-actions">
        <button type="submit" className="btn btn--primary" disabled={isLoading}>
          {isLoading ? 'Sending…' : 'Send request'}
        </button>
      </div>
    </form>
  );
}
