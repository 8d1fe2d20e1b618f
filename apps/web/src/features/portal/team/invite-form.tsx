import { inviteRequest, teamRole, type TeamRole } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { SubmitRow } from '../components/busy-button.tsx';
import { CardForm } from '../components/card.tsx';
import { Notice, type NoticeText } from '../components/notice.tsx';
import { ChoiceField, TextField } from '../components/text-field.tsx';
import { useInviteMutation } from './team-api.ts';
import { ROLE_HINTS, ROLE_LABELS, sentence } from './team-texts.ts';

/** Owners only: invites a person by e-mail; the mail's link works once, for 7 days. */
export function InviteForm() {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [notice, setNotice] = useState<NoticeText | null>(null);
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
    <CardForm id="invite-form-title" title="Invite a person" onSubmit={onSubmit}>
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
      <ChoiceField id="invite-role" label="Role" choices={teamRole.options} labels={ROLE_LABELS} hints={ROLE_HINTS} value={role} onValueChange={setRole} />
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      <SubmitRow busy={isLoading} busyText="Sending…">Send invitation</SubmitRow>
    </CardForm>
  );
}
