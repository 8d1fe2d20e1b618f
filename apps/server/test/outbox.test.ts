import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { alertAttempts, alertDeliveries } from '../src/db/schema/index.ts';
import { DeliveryOutbox } from '../src/features/outbox/index.ts';
import { buildTestApp, createTestClient } from './helpers/app.ts';

type Row = typeof alertDeliveries.$inferSelect;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A door a delivery waits at (a slow receiver), opened by the test. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function queue(clientId: string, n: number, dueSecondsAgo: number): Promise<string[]> {
  const rows = await app!
    .db.insert(alertDeliveries)
    .values(
      Array.from({ length: n }, (_, i) => ({
        clientId,
        channelName: `hook ${i}`,
        kind: 'webhook' as const,
        rule: 'run-failed',
        title: 'a test alert',
        message: {},
        nextAttemptAt: new Date(Date.now() - dueSecondsAgo * 1000),
      })),
    )
    .returning({ id: alertDeliveries.id });
  return rows.map((r) => r.id);
}

function outbox(send: (row: Row) => Promise<number | null>) {
  return new DeliveryOutbox<Row>({
    db: app!.db,
    env: app!.env,
    log: app!.log,
    deliveries: alertDeliveries,
    attempts: alertAttempts,
    send,
    says: { attemptFailed: 'a test delivery failed', passFailed: 'test deliveries failed' },
  });
}

const statusOf = async (ids: string[]) =>
  (await app!.db.select({ id: alertDeliveries.id, status: alertDeliveries.status }).from(alertDeliveries).where(inArray(alertDeliveries.id, ids))).map((r) => r.status);

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await check()) return true;
  return check();
}

describe('the delivery outbox: a bounded share per client, claims held while they run', () => {
  it('a slow receiver of client A holds only A\u2019s share: client B\u2019s delivery, queued after, goes at once', async () => {
    app = await buildTestApp({ env: { OUTBOX_CONCURRENCY: 4, OUTBOX_CLIENT_CONCURRENCY: 2 } });
    const a = await createTestClient(app);
    const b = await createTestClient(app);
    const aIds = await queue(a.clientId, 4, 60);
    const bIds = await queue(b.clientId, 1, 1);
    const slow = gate();
    let aAtOnce = 0;
    let aMost = 0;
    const box = outbox(async (row) => {
      if (row.clientId !== a.clientId) return 200;
      aMost = Math.max(aMost, ++aAtOnce);
      await slow.opened;
      aAtOnce -= 1;
      return 200;
    });
    const pass = box.drain();
    try {
      // Before: one delivery after another, B's behind A's four, each held as long as A's receiver liked.
      expect(await until(async () => (await statusOf(bIds))[0] === 'delivered', 3000)).toBe(true);
      expect(aMost).toBe(2);
      expect(await statusOf(aIds)).toEqual(['pending', 'pending', 'pending', 'pending']);
    } finally {
      slow.open();
      await pass;
    }
    expect(await statusOf(aIds)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(aMost).toBe(2);
  });

  it('a delivery longer than its claim keeps it: renewed while it runs, never taken by a second process', async () => {
    app = await buildTestApp({ env: { OUTBOX_CLAIM_SECONDS: 1 } });
    const c = await createTestClient(app);
    const [id] = await queue(c.clientId, 1, 1);
    const heldUntil = async () => (await app!.db.select({ at: alertDeliveries.lockedUntil }).from(alertDeliveries).where(eq(alertDeliveries.id, id!)))[0]!.at!.getTime();

    const slow = gate();
    let started = false;
    const first = outbox(async () => {
      started = true;
      await slow.opened;
      return 200;
    });
    let secondSends = 0;
    const second = outbox(async () => {
      secondSends += 1;
      return 200;
    });

    const pass = first.drain();
    expect(await until(async () => started, 2000)).toBe(true);
    const firstHold = await heldUntil();
    // Three claims' worth of time, the second process looking every 200 ms.
    for (const end = Date.now() + 3000; Date.now() < end; await sleep(200)) await second.drain();
    const laterHold = await heldUntil();
    slow.open();
    await pass;

    expect(secondSends).toBe(0);
    expect(laterHold).toBeGreaterThan(firstHold + 1000);
    const attempts = await app.db.select().from(alertAttempts).where(eq(alertAttempts.deliveryId, id!));
    expect(attempts).toHaveLength(1);
    expect(await statusOf([id!])).toEqual(['delivered']);
  });

  it('a second drain while a pass waits on a slow delivery makes it look again at once', async () => {
    app = await buildTestApp({ env: { OUTBOX_CLIENT_CONCURRENCY: 1 } });
    const a = await createTestClient(app);
    const b = await createTestClient(app);
    await queue(a.clientId, 1, 60);
    const slow = gate();
    let aStarted = false;
    const box = outbox(async (row) => {
      if (row.clientId === a.clientId) {
        aStarted = true;
        await slow.opened;
      }
      return 200;
    });
    const pass = box.drain();
    try {
      expect(await until(async () => aStarted, 2000)).toBe(true);
      const bIds = await queue(b.clientId, 1, 1);
      void box.drain();
      expect(await until(async () => (await statusOf(bIds))[0] === 'delivered', 2000)).toBe(true);
    } finally {
      slow.open();
      await pass;
    }
  });
});
