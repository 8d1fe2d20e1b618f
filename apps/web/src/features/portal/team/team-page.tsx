import { teamRole, type TeamResponse } from '@fullstop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { failureMessage } from '@/lib/failure-message.ts';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncLoading } from '../components/async-state.tsx';
import { Card } from '../components/card.tsx';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { filterOptions, SelectOptions } from '../components/filter-select.tsx';
import { FormError } from '../components/form-error.tsx';
import { PortalPage } from '../components/portal-page.tsx';
import { useAppSelector } from '../store/hooks.ts';
import { InviteForm } from './invite-form.tsx';
import { useCancelInvitationMutation, useChangeRoleMutation, useGetTeamQuery, useRemoveMemberMutation } from './team-api.ts';
import { ROLE_LABELS } from './team-texts.ts';
import './team.css';

const failureText = (error: unknown) => failureMessage(error, 'Please try again later.');

/** /dashboard/team: who is in the team with which role; owners invite, change roles and remove. */
export function TeamPage() {
  const team = useGetTeamQuery();
  return (
    <PortalPage id="team-page-title" title="Team">
      <p className="portal-muted team-intro">
        Manage your own password on <Link to={paths.account}>your account page</Link>.
      </p>
      {team.isLoading ? (
        <AsyncLoading>Loading your team…</AsyncLoading>
      ) : team.error || !team.data ? (
        <FormError message={`Could not load your team: ${failureText(team.error)}`} />
      ) : (
        <TeamView team={team.data} />
      )}
    </PortalPage>
  );
}

function TeamView({ team }: { team: TeamResponse }) {
  const me = useAppSelector((state) => state.session.userData?.id);
  const owner = team.yourRole === 'owner';
  const [changeRole] = useChangeRoleMutation();
  const [removeMember] = useRemoveMemberMutation();
  const [cancelInvitation] = useCancelInvitationMutation();
  const confirm = useConfirm();
  const [error, setError] = useState<string | null>(null);

  const act = async (work: Promise<unknown>) => {
    setError(null);
    try {
      await work;
    } catch (failure) {
      setError(failureText(failure));
    }
  };

  return (
    <div className="portal-stack">
      {owner ? (
        <InviteForm />
      ) : (
        <p className="portal-alert portal-alert--info">
          You are a {ROLE_LABELS[team.yourRole].toLowerCase()} of this team. Only an owner can invite people, change roles or remove members.
        </p>
      )}
      <FormError message={error} />
      <Card id="team-members-title" title="Members">
        <ul className="portal-rows">
          {team.members.map((member) => (
            <li key={member.userId} className="portal-row team-row">
              <div className="team-row__who">
                <span className="portal-row__name">
                  {member.username}
                  {member.userId === me && <span className="portal-muted"> (you)</span>}
                </span>
                <span className="portal-muted team-row__email">{member.email}</span>
                <span className="portal-muted team-row__meta">Joined {formatDate(member.joinedAt)}</span>
              </div>
              {owner ? (
                <div className="team-row__actions">
                  <label className="visually-hidden" htmlFor={`role-${member.userId}`}>
                    Role of {member.username}
                  </label>
                  <select
                    id={`role-${member.userId}`}
                    value={member.role}
                    onChange={(e) => void act(changeRole({ userId: member.userId, role: teamRole.parse(e.target.value) }).unwrap())}
                  >
                    <SelectOptions options={filterOptions(teamRole.options, ROLE_LABELS)} />
                  </select>
                  <button
                    type="button"
                    className="btn btn--ghost portal-btn-sm"
                    onClick={() =>
                      confirm.ask({
                        title: `Remove ${member.username}?`,
                        message: `${member.email} will lose access to this team at once and be signed out. You can invite them again later.`,
                        confirmText: 'Remove',
                        onConfirm: () => void act(removeMember(member.userId).unwrap()),
                      })
                    }
                  >
                    Remove
                  </button>
                </div>
              ) : (
                <span className="portal-badge">{ROLE_LABELS[member.role]}</span>
              )}
            </li>
          ))}
        </ul>
      </Card>
      <Card id="team-invitations-title" title="Pending invitations">
        {team.invitations.length === 0 ? (
          <p className="portal-muted">No invitation is waiting for an answer.</p>
        ) : (
          <ul className="portal-rows">
            {team.invitations.map((invitation) => (
              <li key={invitation.id} className="portal-row team-row">
                <div className="team-row__who">
                  <span className="portal-row__name">{invitation.email}</span>
                  <span className="portal-muted team-row__meta">
                    {ROLE_LABELS[invitation.role]} · the link works until {formatDate(invitation.expiresAt)}
                    {invitation.invitedBy ? ` · invited by ${invitation.invitedBy}` : ''}
                  </span>
                </div>
                {owner && (
                  <div className="team-row__actions">
                    <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => void act(cancelInvitation(invitation.id).unwrap())}>
                      Cancel invitation
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {confirm.dialog}
    </div>
  );
}
