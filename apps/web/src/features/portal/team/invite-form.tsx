import { inviteRequest, teamRole, type TeamRole } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { TextField } from '../components/text-field.tsx';
import { useInviteMutation } from './team-api.ts';
import { ROLE_HINTS, ROLE_LABELS, sentence } from './team-texts.ts';

/** Owners only: invites a person by e-mail; the mail's link works once, for 7 days. */
export function InviteForm() {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [invite, { isLoading }] = useInviteMutation();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = inviteRequest.safeParse({ email: email.trim(), role });
    if (!parsed.success) {
      setEmailError(sentence(parsed.error.issues[0]?.message ?? 'email must be a valid email address'));
      setNotice(null);
      return;
    }
    setEmailError(undefined);
    try {
      const sent = await invite(parsed.data).unwrap();
      setEmail('');
      setNotice({ tone: 'success', text: `Invitation sent to ${sent.email}. The link works for 7 days.` });
    } catch (error) {
      const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : 'Please try again later.';
      setNotice({ tone: 'error', text: `Could not send the invitation: ${message}` });
    }
  }

  return (
    <form className="portal-card portal-form" onSubmit={onSubmit} noValidate aria-labelledby="invite-form-title">
      <h2 id="invite-form-title" className="portal-card__title">
        Invite a person
      </h2>
      <TextField
        id="invite-email"
        label="E-mail"
        type="email"
        autoComplete="off"
        value={email}
        maxLength={254}
        onChange={(e) => setEmail(e.target.value)}
        error={emailError}
      />
      <div className="portal-field">
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" value={role} onChange={(e) => setRole(teamRole.parse(e.target.value))}>
          {teamRole.options.map((option) => (
            <option key={option} value={option}>
              {ROLE_LABELS[option]}
            </option>
          ))}
        </select>
        <p className="portal-muted portal-field__hint">{ROLE_HINTS[role]}</p>
      </div>
      {notice && (
        <p className={`portal-alert portal-alert--${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
      <div className="portal-actions">
        <button type="submit" className="btn btn--primary" disabled={isLoading}>
          {isLoading ? 'Sending…' : 'Send invitation'}
        </button>
      </div>
    </form>
  );
}
