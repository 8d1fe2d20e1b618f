import { scheduleScopeLabel } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import { Card } from '../components/card.tsx';
import { useGetMySchedulesQuery } from '../store/schedules-api.ts';

/** The client's schedules, set by our QA team: what runs when, and the next run. Nothing shows without one. */
export function TestSchedules() {
  const { data } = useGetMySchedulesQuery();
  if (!data || data.schedules.length === 0) return null;
  return (
    <Card id="tests-schedules-title" title="Scheduled runs" className="tests-schedules">
      <p className="portal-muted">{data.nextRunAt ? `Next run: ${formatDate(data.nextRunAt)}` : 'All schedules are paused.'}</p>
      <ul className="tests-schedules__list">
        {data.schedules.map((s) => (
          <li key={s.id}>
            <span>{scheduleScopeLabel(s.scope)}</span> <span className="portal-mono">{s.cron}</span> <span className="portal-muted">({s.timezone})</span>{' '}
            <span className="portal-muted">{s.paused ? '— paused' : `— next ${formatDate(s.nextRunAt)}`}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
