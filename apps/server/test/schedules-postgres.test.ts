import type { OperatorSchedule, RunHistoryPage } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clientSchedules } from '../src/db/schema/index.ts';
import { TEST_DATABASE_URL } from './helpers/app.ts';
import { secondEngine } from './helpers/second-engine.ts';
import { buildEngineApp, clientWithSuite, key, operator } from './engine/helpers.ts';

const MINUTE = 60_000;
const fast = { cronMonitorIntervalSeconds: 1, pollSeconds: 1 };

/**
 * Two processes (each its own pg-boss and connection pool) run the real scheduler, pg-boss's cron on a one-second
 * monitor, over real minute boundaries: every tick runs exactly once between them, and a schedule that missed
 * three ticks while the service was down runs once. Needs TEST_DATABASE_URL: the embedded database admits one
 * process, so there is nothing to share there. Takes up to ~135 s (two minute boundaries).
 */
describe.skipIf(!TEST_DATABASE_URL)('schedules with two processes on PostgreSQL', () => {
  it('run each tick once, and a tick missed during downtime once', { timeout: 170_000 }, async () => {
    const app = await buildEngineApp();
    const { engine: second, close: closeSecond } = secondEngine(app);
    try {
      const everyMinute = await clientWithSuite(app, { G: [{ name: 'ping', kind: 'api' }] });
      const hourly = await clientWithSuite(app, { G: [{ name: 'ping', kind: 'api' }] });
      const add = async (clientId: string, cron: string) => {
        const res = await app.inject({ method: 'POST', url: `/operator/clients/${clientId}/schedules`, headers: operator, payload: { cron, timezone: 'UTC', scope: { kind: 'all' } } });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<OperatorSchedule>();
      };
      const start = Date.now();
      const s1 = await add(everyMinute.clientId, '* * * * *');
      // Hourly, five minutes ago; last acted on 2 h 15 min ago: three ticks (-5 min, -65, -125) were missed.
      const minute = (new Date(start).getUTCMinutes() + 55) % 60;
      const s2 = await add(hourly.clientId, `${minute} * * * *`);
      await app.db.update(clientSchedules).set({ lastTickAt: new Date(start - 135 * MINUTE) }).where(eq(clientSchedules.id, s2.id));

      await app.engine.startScheduler(fast);
      await second.startScheduler(fast);

      const secondBoundary = Math.ceil(start / MINUTE) * MINUTE + MINUTE;
      const deadline = secondBoundary + 25_000;
      for (;;) {
        const [row] = await app.db.select().from(clientSchedules).where(eq(clientSchedules.id, s1.id));
        if (row!.lastTickAt.getTime() >= secondBoundary || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      // Late duplicates would land in these seconds.
      await new Promise((r) => setTimeout(r, 4000));

      const runs = async (clientId: string, apiKey: string) =>
        (await app.inject({ url: '/test/history', headers: key({ clientId, apiKey } as never) })).json<RunHistoryPage>().runs;
      const minuteRuns = await runs(everyMinute.clientId, everyMinute.apiKey);
      expect(minuteRuns.map((r) => r.trigger)).toEqual(['schedule', 'schedule']);
      const hourlyRuns = await runs(hourly.clientId, hourly.apiKey);
      expect(hourlyRuns.map((r) => r.trigger)).toEqual(['schedule']);
      const [row] = await app.db.select().from(clientSchedules).where(eq(clientSchedules.id, s1.id));
      expect(row!.lastTickAt.getTime()).toBe(secondBoundary);
    } finally {
      await closeSecond();
      await app.close();
    }
  });
});
