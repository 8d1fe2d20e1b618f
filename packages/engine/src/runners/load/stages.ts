/**
 * k6-style stages: `[{ duration: '30s', target: 50 }, { duration: '1m', target: 50 }, { duration: '10s', target: 0 }]`
 * ramps the number of open connections linearly from where the previous stage ended (none at the start) to each
 * stage's target over its duration. A stage of '0s' jumps to its target at once.
 */

/** One stage as the runner uses it: its length in seconds and the connections open at its end. */
export interface Stage {
  durationSeconds: number;
  target: number;
}

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

/** Seconds in a duration written as k6 writes them ('30s', '1m30s', '500ms', '1h'), or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of text.matchAll(PART)) seconds += Number(amount) * (UNIT_SECONDS[unit ?? 's'] ?? 1);
  return seconds;
}

export function stagesSeconds(stages: readonly Stage[]): number {
  return stages.reduce((sum, s) => sum + s.durationSeconds, 0);
}

/** Connections that should be open `seconds` into the run: linear within a stage, rounded to the nearest whole one. */
export function connectionsAt(stages: readonly Stage[], seconds: number): number {
  let from = 0;
  let start = 0;
  for (const stage of stages) {
    const end = start + stage.durationSeconds;
    if (seconds < end) {
      const done = stage.durationSeconds > 0 ? (seconds - start) / stage.durationSeconds : 1;
      return Math.round(from + (stage.target - from) * Math.max(0, done));
    }
    from = stage.target;
    start = end;
  }
  return from;
}

export function maxTarget(stages: readonly Stage[]): number {
  return stages.reduce((max, s) => Math.max(max, s.target), 0);
}
