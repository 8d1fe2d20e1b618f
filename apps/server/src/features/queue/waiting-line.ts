import { kinds } from '@fullstop/engine/kinds';
import type { QueuePlace } from '@fullstop/contracts';
import type { Db } from '../../db/database.ts';
import { type LineRow, readLine, type WaitingRow } from './waiting-repository.ts';

/** A kind that never finished recently is assumed to take this long (its facts' typical time when it has one). */
const DEFAULT_SECONDS = 60;

/** One queued test, in the order the workers take them, with about when it starts. */
export type WaitingTest = WaitingRow & QueuePlace;

/** How long a test of this kind takes: its recent median, else its kind's typical time. */
function secondsOf(kind: string, medians: Record<string, number>): number {
  const median = medians[kind];
  if (typeof median === 'number' && median > 0) return median;
  return (kinds as Record<string, { typicalSeconds?: number } | undefined>)[kind]?.typicalSeconds ?? DEFAULT_SECONDS;
}

/**
 * Plays the queue out: each worker (at least one, and at least as many as run now) takes the next waiting test as
 * soon as its current one should end. A test's estimate is when its worker should be free; a running test that
 * already took longer than its kind's median is taken to end now.
 */
export function line({ waiting, running, medians, slots }: LineRow): WaitingTest[] {
  const lanes = running.map((r) => Math.max(0, secondsOf(r.kind, medians) - r.elapsed));
  while (lanes.length < Math.max(1, slots)) lanes.push(0);
  return waiting.map((w) => {
    let next = 0;
    for (let i = 1; i < lanes.length; i++) if (lanes[i]! < lanes[next]!) next = i;
    const startsAt = lanes[next]!;
    lanes[next] = startsAt + secondsOf(w.kind, medians);
    return { ...w, startsInSeconds: Math.round(startsAt) };
  });
}

/** Every queued test in the order they start, each with its place and about when it starts. One query. */
export async function waitingLine(db: Db): Promise<WaitingTest[]> {
  try {
    return line(await readLine(db));
  } catch (err) {
    // pg-boss makes its schema when first used (the API tests never queue a run): no queue yet, nothing waits.
    if (NO_QUEUE_YET.has(String((err as { code?: unknown }).code ?? (err as { cause?: { code?: unknown } }).cause?.code))) return [];
    throw err;
  }
}

/** PostgreSQL's "undefined table" and "invalid schema name". */
const NO_QUEUE_YET = new Set(['42P01', '3F000']);

/** The queue places of these run tests (absent: not waiting). One query, whatever the number of tests. */
export async function queuePlacesOf(db: Db, runTestIds: readonly string[]): Promise<Map<string, QueuePlace>> {
  if (runTestIds.length === 0) return new Map();
  const wanted = new Set(runTestIds);
  const places = new Map<string, QueuePlace>();
  for (const w of await waitingLine(db)) if (wanted.has(w.runTestId)) places.set(w.runTestId, { position: w.position, startsInSeconds: w.startsInSeconds });
  return places;
}
