import type { RunManualWaiting } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import './manual-waiting.css';

/** "2 manual cases waiting for a tester, due by 28/11/2026, 21:36:44"; null when none waits. */
export function manualWaitingText(manual: RunManualWaiting | null | undefined): string | null {
  if (!manual || manual.count <= 0) return null;
  const cases = manual.count === 1 ? '1 manual case' : `${manual.count} manual cases`;
  return `${cases} waiting for a tester, due by ${formatDate(manual.dueAt)}`;
}

/**
 * A run's manual cases still waiting for a tester (issue 41), as the run detail, the dashboard and the Tests page
 * say it. `run` is any answer about a run that may carry `manual` (older servers leave it out).
 */
export function ManualWaitingNote({ run }: { run: { runId: string; manual?: RunManualWaiting | null } }) {
  const text = manualWaitingText(run.manual);
  if (!text) return null;
  return (
    <p className="portal-alert portal-alert--info manual-waiting" role="status">
      {text}.
    </p>
  );
}
