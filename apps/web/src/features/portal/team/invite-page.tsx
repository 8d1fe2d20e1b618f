import { acceptInvitationRequest } from '@fullstop/contracts';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { failureMessage } from '@/lib/failure-message.ts';
import { formatDate } from '@/lib/format-date.ts';
import { describeError, http } from '@/lib/http-client.ts';
import { useLinkToken } from '@/lib/use-link-token.ts';
import { AsyncLoading } from '../components/async-state.tsx';
import { SubmitRow } from '../components/busy-button.tsx';
import { FormError } from '../components/form-error.tsx';
import { FullLogo } from '../components/full-logo.tsx';
import { NewPasswordFields, NO_NEW_PASSWORD, TextField } from '../components/text-field.tsx';
import { useAppDispatch } from '../store/hooks.ts';
import { loggedIn } from '../store/session-slice.ts';
import { usePreviewInvitationQuery } from './team-api.ts';
import { newPasswordErrors, ROLE_LABELS } from './team-texts.ts';

type Errors = Partial<Record<'username' | 'password' | 'confirm', string>>;

const PASSWORD_LABELS = { password: 'Password (at least 10 characters)', confirm: 'Repeat the password' };

const NO_TOKEN = 'This invitation link is not complete. Please open the whole link from the invitation e-mail.';

/**
 * /invite?token=…: the link of an invitation mail. Shows the team and the e-mail it is for, asks for a name and a
 * password, then logs the new user in and opens the dashboard. The token is taken into the page and dropped from
 * the address, so it stays out of the history and of any Referer.
 */
export function InvitePage() {
  const token = useLinkToken();
  const preview = usePreviewInvitationQuery(token ?? skipToken);

  return (
    <div className="portal-auth">
      <section className="portal-auth__card" aria-labelledby="invite-page-title">
        <FullLogo />
        <h1 id="invite-page-title" className="portal-auth__title">
          Join your team
        </h1>
        {!token ? (
          <FormError message={NO_TOKEN} />
        ) : preview.isLoading ? (
          <AsyncLoading>Checking your invitation…</AsyncLoading>
        ) : preview.error || !preview.data ? (
          <>
            <FormError message={failureMessage(preview.error, 'Your invitation could not be checked. Please try again later.')} />
            <p className="portal-auth__aside">
              Already have an account? <Link to={paths.login}>Log in</Link>
            </p>
          </>
        ) : (
          <AcceptForm
            token={token}
            clientName={preview.data.clientName}
            email={preview.data.email}
            role={ROLE_LABELS[preview.data.role]}
            expiresAt={preview.data.expiresAt}
          />
        )}
      </section>
    </div>
  );
}

function AcceptForm({ token, clientName, email, role, expiresAt }: { token: string; clientName: string; email: string; role: string; expiresAt: string }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [passwords, setPasswords] = useState(NO_NEW_PASSWORD);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const parsed = acceptInvitationRequest.safeParse({ token, username, password: passwords.password });
    const next: Errors = newPasswordErrors(parsed.error?.issues ?? [], passwords, 'The two passwords do not match.');
    setErrors(next);
    if (!parsed.success || next.confirm) return;
    setBusy(true);
    try {
      const session = await http.acceptInvitation(parsed.data);
      dispatch(loggedIn(session.userData));
      void navigate(paths.dashboard, { replace: true });
    } catch (error) {
      setFailure(describeError(error, 'Your account could not be created. Please try again later.'));
      setBusy(false);
    }
  }

  return (
    <form className="portal-form" onSubmit={onSubmit} noValidate aria-label="Accept the invitation">
      <p className="portal-auth__hint">
        You are invited to join <strong>{clientName}</strong> on Fullstop QA as {role.toLowerCase() === 'owner' ? 'an' : 'a'} {role.toLowerCase()}. Choose
        your name and a password to finish. This invitation works until {formatDate(expiresAt)}.
      </p>
      <TextField id="invite-page-email" label="E-mail" type="email" value={email} readOnly autoComplete="username" />
      <TextField
        id="invite-page-username"
        label="Your name"
        autoComplete="name"
        value={username}
        maxLength={100}
        onChange={(e) => setUsername(e.target.value)}
        error={errors.username}
      />
      <NewPasswordFields id="invite-page" labels={PASSWORD_LABELS} value={passwords} onChange={setPasswords} errors={errors} />
      <FormError message={failure} />
      <SubmitRow className="btn btn--primary portal-btn-block" busy={busy} busyText="Creating your account…">Join the team</SubmitRow>
    </form>
  );
}
