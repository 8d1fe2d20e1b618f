import { scheduleScopeLabel, type ScheduleScopeKind } from '@fullstop/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncFailed, AsyncLoading } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { TextField } from '../../components/text-field.tsx';
import { ClientCardForm } from './client-card-form.tsx';
import './client-schedules.css';
import { useAddOpsScheduleMutation, useChangeOpsScheduleMutation, useDeleteOpsScheduleMutation, useGetOpsSchedulesQuery } from './schedules-api.ts';
import { useCardNotice } from './use-card-notice.ts';

function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

/** The client's schedules: cron expressions in a time zone running all tests, a group or a test; listed, added, paused, resumed, deleted. */
export function ClientSchedules({ clientId }: { clientId: string }) {
  const list = useGetOpsSchedulesQuery(clientId);
  const [add, adding] = useAddOpsScheduleMutation();
  const [change, changing] = useChangeOpsScheduleMutation();
  const [remove, removing] = useDeleteOpsScheduleMutation();
  const zones = useMemo(timeZones, []);
  const [cron, setCron] = useState('0 6 * * *');
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [kind, setKind] = useState<ScheduleScopeKind>('all');
  const [name, setName] = useState('');
  const { notice, setNotice, act } = useCardNotice();
  const busy = adding.isLoading || changing.isLoading || removing.isLoading;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (kind !== 'all' && !name.trim()) {
      setNotice({ tone: 'error', text: `Enter the ${kind}’s name.` });
      return;
    }
    const scope = kind === 'all' ? { kind } : { kind, name: name.trim() };
    void act(() => add({ clientId, body: { cron: cron.trim(), timezone, scope } }).unwrap(), 'Schedule added.');
  };

  const schedules = list.data?.schedules ?? [];
  return (
    <Card id="ops-schedules-title" title="Schedules">
      {list.isLoading ? (
        <AsyncLoading>Loading schedules…</AsyncLoading>
      ) : list.isError ? (
        <AsyncFailed>The schedules could not be loaded.</AsyncFailed>
      ) : schedules.length === 0 ? (
        <p className="portal-muted">No schedules: the client’s tests run only when started.</p>
      ) : (
        <ul className="ops-list">
          {schedules.map((s) => (
            <li key={s.id}>
              <span>
                <span className="portal-mono">{s.cron}</span> <span className="ops-muted">({s.timezone})</span> {scheduleScopeLabel(s.scope)} —{' '}
                <span className="ops-muted">{s.paused ? 'paused' : `next ${formatDate(s.nextRunAt)}`}</span>
              </span>
              <span>
                <button
                  type="button"
                  className="btn btn--ghost portal-btn-sm"
                  disabled={busy}
                  onClick={() => void act(() => change({ clientId, scheduleId: s.id, body: { paused: !s.paused } }).unwrap(), s.paused ? 'Schedule resumed.' : 'Schedule paused.')}
                >
                  {s.paused ? 'Resume' : 'Pause'}
                </button>{' '}
                <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} aria-label={`Delete the schedule ${s.cron}`} onClick={() => void act(() => remove({ clientId, scheduleId: s.id }).unwrap(), 'Schedule deleted.')}>
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <ClientCardForm label="Add a schedule" className="ops-schedule-form" onSubmit={onSubmit} busy={busy} submitText="Add schedule" notice={notice}>
        <TextField id="ops-schedule-cron" label="Cron (minute hour day month weekday)" value={cron} onChange={(e) => setCron(e.target.value)} />
        <div className="portal-field">
          <label htmlFor="ops-schedule-tz">Time zone</label>
          <select id="ops-schedule-tz" value={timezone} onChange={(e) => setTimezone(e.target.value)}>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </div>
        <div className="portal-field">
          <label htmlFor="ops-schedule-scope">Runs</label>
          <select id="ops-schedule-scope" value={kind} onChange={(e) => setKind(e.target.value as ScheduleScopeKind)}>
            <option value="all">All tests</option>
            <option value="group">One group</option>
            <option value="test">One test</option>
          </select>
        </div>
        {kind !== 'all' && <TextField id="ops-schedule-name" label={kind === 'group' ? 'Group name' : 'Test name'} value={name} onChange={(e) => setName(e.target.value)} />}
      </ClientCardForm>
    </Card>
  );
}
