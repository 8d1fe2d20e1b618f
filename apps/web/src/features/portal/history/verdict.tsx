import type { RunStatus } from '@fullstop/contracts';
import { VERDICTS } from './history-texts.ts';

/** A verdict as a word on a coloured pill: the colour never carries the meaning alone. */
export function Verdict({ status }: { status: RunStatus }) {
  return <span className={`history-verdict history-verdict--${status}`}>{VERDICTS[status]}</span>;
}
