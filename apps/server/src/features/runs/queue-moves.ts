import type { EngineDeps } from '../engine/index.ts';
import { waitingLine } from '../queue/index.ts';
import { testEventOf } from './mappers.ts';
import { runTestsByIds } from './run-repository.ts';

/** Moves close together (a run of 40 tests queued, a worker taking the next) are announced once, this much later. */
const ANNOUNCE_DELAY_MS = 400;
/** Beyond this many waiting tests, the ones further back hear of their place at the next move that reaches them. */
const MAX_ANNOUNCED = 500;

const announcers = new WeakMap<EngineDeps, () => void>();

/**
 * The queue moved (tests queued, one started or ended, some cancelled): every waiting test's place and estimate
 * is sent again on the event stream (a `test` event with its `queue`), at most once per ANNOUNCE_DELAY_MS. Two
 * queries however long the queue; each stream drops what did not change for it.
 */
export function queueMoved(deps: EngineDeps): void {
  let announce = announcers.get(deps);
  if (!announce) announcers.set(deps, (announce = announcer(deps)));
  announce();
}

function announcer(deps: EngineDeps): () => void {
  let timer: NodeJS.Timeout | null = null;
  let busy = false;
  let again = false;
  const schedule = () => {
    if (busy) {
      again = true;
      return;
    }
    if (timer) return;
    timer = setTimeout(() => void announce(), ANNOUNCE_DELAY_MS);
    timer.unref();
  };
  const announce = async () => {
    timer = null;
    busy = true;
    try {
      const waiting = (await waitingLine(deps.db)).slice(0, MAX_ANNOUNCED);
      const rows = new Map((await runTestsByIds(deps.db, waiting.map((w) => w.runTestId))).map((r) => [r.id, r]));
      for (const w of waiting) {
        const row = rows.get(w.runTestId);
        // Read after the line: a test that started meanwhile is not announced as waiting.
        if (row?.status !== 'queued') continue;
        deps.bus.emit(row.clientId, { type: 'test', data: { ...testEventOf(row), queue: { position: w.position, startsInSeconds: w.startsInSeconds } } });
      }
    } catch (err) {
      deps.log.warn({ err }, 'announcing the queue’s places failed; the next move announces them');
    } finally {
      busy = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  };
  return schedule;
}
