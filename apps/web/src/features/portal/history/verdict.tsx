import { incompleteScanWords, type RunStatus } from '@fullstop/contracts';
import { VERDICTS } from './history-texts.ts';

/** A verdict as a word on a coloured pill: the colour never carries the meaning alone. */
export function Verdict({ status, error }: { status: RunStatus; error?: string | null }) {
  const words = incompleteScanWords(status, error) ?? VERDICTS[status];
  return <span className={`history-verdict history-verdict--${status}`}>{words}</span>;
}
