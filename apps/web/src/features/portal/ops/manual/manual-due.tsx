import { formatDate } from '@/lib/format-date.ts';
import { DUE_WORDS, dueState } from './manual-texts.ts';

/** The due time, with "Overdue" or "Due soon" beside it when it is near. */
export function DueBy({ dueAt, now }: { dueAt: string; now: number }) {
  const state = dueState(dueAt, now);
  const words = DUE_WORDS[state];
  return (
    <span className="manual-due">
      <time dateTime={dueAt}>{formatDate(dueAt)}</time>
      {words && <span className={`manual-due__tag manual-due__tag--${state}`}>{words}</span>}
    </span>
  );
}
