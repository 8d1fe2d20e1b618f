import type { BugEvent } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import { Card } from '../card.tsx';
import { StatusBadge } from './bug-badges.tsx';
import { STATUS_LABELS } from './bug-labels.ts';

/** Every change of the bug's status, oldest first: who moved it, when, and why. */
export function BugTimeline({ events }: { events: BugEvent[] }) {
  return (
    <Card id="bug-history-title" title="Status history" className="bug-section">
      {events.length === 0 ? (
        <p className="portal-muted">No changes yet.</p>
      ) : (
        <ol className="bug-timeline">
          {events.map((event, i) => (
            <li key={`${event.createdAt}-${i}`} className="bug-timeline__item">
              <p className="bug-timeline__change">
                {event.from ? <span className="visually-hidden">{STATUS_LABELS[event.from]} to </span> : null}
                <StatusBadge status={event.to} />
                <span className="bug-timeline__by">by {event.by}</span>
              </p>
              <time className="bug-timeline__when" dateTime={event.createdAt}>
                {formatDate(event.createdAt)}
              </time>
              {event.reason && <p className="bug-timeline__reason">{event.reason}</p>}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
