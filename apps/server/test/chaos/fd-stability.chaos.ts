import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realServerForSuite } from './helpers/real-server.ts';

const RUNS = 5;
const TESTS_PER_RUN = 10;
/** Descriptors a busy server may hold at one moment beyond its warm state (sockets of calls in flight). */
const SLACK = 8;

const openDescriptors = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

/**
 * Fifty attempts through the real server: every one is a runner process forked by the launcher, watched by the
 * monitor thread, killed and swept at its end. The server's open file descriptors after the last one are what
 * they were after the first run: nothing of an attempt (pipes, IPC channels, /proc handles) stays open. A runner's
 * own leaks (Lighthouse's were seen) die with its process.
 */
describe('file descriptors over 50 attempts', () => {
  const server = realServerForSuite({ ENGINE_WORKERS: '4', ENGINE_RETRIES: '0' });

  it('stay where they were after the first run', { timeout: 180_000 }, async () => {
    const tests = Array.from({ length: TESTS_PER_RUN }, (_, i) => ({ name: `check ${i + 1}`, kind: 'api', options: {} }));
    const apiKey = await server.clientWithSuite({ Checks: tests });
    const pid = server.child!.pid!;
    const counts: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const runId = await server.runAll(apiKey);
      const detail = await server.waitForEnd(apiKey, runId, 60_000);
      expect(detail.status, JSON.stringify(detail)).toBe('passed');
      // Let the last attempt's pipes close.
      await new Promise((r) => setTimeout(r, 500));
      counts.push(openDescriptors(pid));
    }
    if (process.env.CHAOS_VERBOSE) console.log('open descriptors after each run:', counts.join(', '));
    expect(Math.max(...counts.slice(1)) - counts[0]!, `descriptors after each run: ${counts.join(', ')}`).toBeLessThanOrEqual(SLACK);
  });
});
