import type { ManualWorkDetailResponse, ManualWorkListResponse, RunDetailResponse } from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, manualWork } from '../src/db/schema/index.ts';
import { expireOverdueManualWork } from '../src/features/manual/index.ts';
import { bearer, createTestClient, createTestOperator, login, type TestClient } from './helpers/app.ts';
import { buildEngineApp, importSuite, key, manifest, operator, waitForRunEnd } from './engine/helpers.ts';

/** Issue 41: a manual case in a run waits for a tester, who claims it, walks its steps and submits the verdict. */

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const steps = [
  { action: 'Open the cart', expected: 'The cart shows one mug' },
  { action: 'Enter the coupon WINTER10', expected: 'The total drops by 10 %' },
  { action: 'Tap Checkout', expected: 'The payment page opens' },
];
const suite = manifest({
  Frontend: [{ name: 'home', kind: 'browser', options: { outcome: 'pass' } }],
  Checkout: [{ name: 'Coupon', kind: 'manual', options: { goal: 'A coupon lowers the total', steps, platforms: [{ device: 'iPhone 15', browser: 'Safari' }, { device: 'desktop', browser: 'Firefox' }], estimateMinutes: 10 } }],
});

function fileForm(name: string, type: string, body: Buffer) {
  const boundary = `----fullstop${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    body,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('manual test cases', () => {
  let app: FastifyInstance;
  let c: TestClient;
  let sam: { authorization: string };
  let kim: { authorization: string };
  let runId: string;
  const list = async (who = sam) => (await app.inject({ url: '/operator/manual', headers: who })).json<ManualWorkListResponse>();
  const mine = async () => (await list()).items.filter((i) => i.runId === runId);
  const run = async (query = '') => {
    const res = await app.inject({ url: `/test/run/all${query}`, headers: key(c) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ runId: string }>().runId;
  };
  const detail = async (id: string) => (await app.inject({ url: `/test/runs/${id}`, headers: key(c) })).json<RunDetailResponse>();

  beforeAll(async () => {
    app = await buildEngineApp(1);
    c = await createTestClient(app, { name: 'Acme Mugs' });
    expect((await importSuite(app, c.clientId, { 'suite.json': suite })).statusCode).toBe(201);
    for (const [name, set] of [['sam', (h: { authorization: string }) => (sam = h)], ['kim', (h: { authorization: string }) => (kim = h)]] as const) {
      const op = await createTestOperator(app, { email: `${name}-${Date.now()}@fullstop.test` });
      set(bearer((await login(app, op.email, op.password)).accessToken));
    }
  }, 60_000);
  afterAll(async () => app.close());

  it('waits for a tester: the automated tests end, the run says what it waits for and until when', { timeout: 150_000 }, async () => {
    runId = await run();
    const deadline = Date.now() + 120_000;
    let d = await detail(runId);
    while (d.tests.find((t) => t.testName === 'home')?.status !== 'passed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      d = await detail(runId);
    }
    expect(d.status).not.toMatch(/passed|failed|error/);
    expect(d.tests.find((t) => t.testName === 'Coupon')?.status).toBe('queued');
    expect(d.manual?.count).toBe(2);
    // 48 working hours from the run: at least two days later, never on a weekend.
    const due = new Date(d.manual!.dueAt);
    expect(due.getTime() - Date.parse(d.createdAt)).toBeGreaterThanOrEqual(48 * 3600_000);
    expect([0, 6]).not.toContain(due.getUTCDay());
    const items = await mine();
    expect(items.map((i) => i.platform)).toEqual(['iPhone 15 · Safari', 'desktop · Firefox']);
    expect(items[0]).toMatchObject({ clientName: 'Acme Mugs', testName: 'Coupon', group: 'Checkout', status: 'waiting', estimateMinutes: 10, stepCount: 3, claimedBy: null });
  });

  it('shows the client its manual cases, steps and platforms', async () => {
    const res = await app.inject({ url: '/test/manual-cases', headers: key(c) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cases).toEqual([
      { testName: 'Coupon', group: 'Checkout', goal: 'A coupon lowers the total', preconditions: [], steps: steps.map((s) => ({ ...s, wcag: [] })), platforms: ['iPhone 15 · Safari', 'desktop · Firefox'], estimateMinutes: 10 },
    ]);
    const other = await createTestClient(app);
    expect((await app.inject({ url: '/test/manual-cases', headers: key(other) })).json().cases).toEqual([]);
  });

  it('is for operators only', async () => {
    expect((await app.inject({ url: '/operator/manual', headers: key(c) })).statusCode).toBe(403);
    const owner = await login(app, c.email, c.password);
    expect((await app.inject({ url: '/operator/manual', headers: bearer(owner.accessToken) })).statusCode).toBe(403);
    expect((await app.inject({ url: '/operator/manual' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/operator/manual/no-such-work', headers: sam })).statusCode).toBe(404);
  });

  it('lets one operator hold one piece at a time, and nobody else touch it', async () => {
    const [phone, desktop] = await mine();
    const claimed = await app.inject({ method: 'POST', url: `/operator/manual/${phone!.id}/claim`, headers: sam });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json<ManualWorkDetailResponse>()).toMatchObject({ goal: 'A coupon lowers the total', status: 'claimed', claimedByMe: true, asked: { device: 'iPhone 15', browser: 'Safari' } });
    expect((await detail(runId)).tests.find((t) => t.testName === 'Coupon')?.status).toBe('running');
    const second = await app.inject({ method: 'POST', url: `/operator/manual/${desktop!.id}/claim`, headers: sam });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toContain('You already hold other manual work');
    const stolen = await app.inject({ method: 'POST', url: `/operator/manual/${phone!.id}/claim`, headers: kim });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().message).toMatch(/holds this manual work until/);
    expect((await app.inject({ method: 'PUT', url: `/operator/manual/${phone!.id}/steps/1`, headers: kim, payload: { verdict: 'passed', note: null } })).statusCode).toBe(409);
    expect((await list(kim)).items.find((i) => i.id === phone!.id)).toMatchObject({ status: 'claimed', claimedByMe: false });
  });

  it('records each step’s verdict, note and evidence, and refuses what is not evidence', async () => {
    const [phone] = await mine();
    const url = `/operator/manual/${phone!.id}`;
    const none = await app.inject({ method: 'PUT', url: `${url}/steps/4`, headers: sam, payload: { verdict: 'passed', note: null } });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('This case has 3 steps: there is no step 4');
    const early = await app.inject({ method: 'POST', url: `${url}/submit`, headers: sam, payload: { used: { device: 'iPhone 15', browser: 'Safari 18' } } });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('Step 1 has no verdict: pass, fail or block it (the steps after a failed or blocked one may stay unreached)');
    expect((await app.inject({ method: 'PUT', url: `${url}/steps/1`, headers: sam, payload: { verdict: 'passed', note: null } })).statusCode).toBe(200);
    const failed = await app.inject({ method: 'PUT', url: `${url}/steps/2`, headers: sam, payload: { verdict: 'failed', note: 'The total stayed at $24.00' } });
    expect(failed.json<ManualWorkDetailResponse>().steps[1]).toMatchObject({ verdict: 'failed', note: 'The total stayed at $24.00' });
    const text = fileForm('notes.txt', 'text/plain', Buffer.from('hello'));
    expect((await app.inject({ method: 'POST', url: `${url}/steps/2/evidence`, headers: { ...sam, ...text.headers }, payload: text.payload })).statusCode).toBe(415);
    const fake = fileForm('shot.png', 'image/png', Buffer.from('not a png at all'));
    expect((await app.inject({ method: 'POST', url: `${url}/steps/2/evidence`, headers: { ...sam, ...fake.headers }, payload: fake.payload })).statusCode).toBe(415);
    const png = fileForm('cart after coupon.png', 'image/png', PNG);
    const up = await app.inject({ method: 'POST', url: `${url}/steps/2/evidence`, headers: { ...sam, ...png.headers }, payload: png.payload });
    expect(up.statusCode, up.body).toBe(200);
    const evidence = up.json<ManualWorkDetailResponse>().steps[1]!.evidence;
    expect(evidence).toEqual([expect.objectContaining({ name: 'cart after coupon.png', contentType: 'image/png', size: PNG.length })]);
    const file = await app.inject({ url: `${url}/steps/2/evidence/${evidence[0]!.id}`, headers: sam });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect((await app.inject({ url: `${url}/steps/2/evidence/${evidence[0]!.id}`, headers: key(c) })).statusCode).toBe(403);
  });

  it('makes the verdicts the test’s result: the run ends failed, its report shows the failed step with its screenshot', { timeout: 150_000 }, async () => {
    const [phone, desktop] = await mine();
    const sent = await app.inject({ method: 'POST', url: `/operator/manual/${phone!.id}/submit`, headers: sam, payload: { used: { device: 'iPhone 15', browser: 'Safari 18.1', os: 'iOS 18.1' } } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe('Submitted: "Coupon" failed');
    // The other platform still waits: the case has not ended.
    expect((await detail(runId)).manual?.count).toBe(1);
    expect((await app.inject({ method: 'POST', url: `/operator/manual/${desktop!.id}/claim`, headers: kim })).statusCode).toBe(200);
    for (const step of [1, 2, 3]) await app.inject({ method: 'PUT', url: `/operator/manual/${desktop!.id}/steps/${step}`, headers: kim, payload: { verdict: 'passed', note: null } });
    expect((await app.inject({ method: 'POST', url: `/operator/manual/${desktop!.id}/submit`, headers: kim, payload: { used: { device: 'desktop', browser: 'Firefox 128' } } })).statusCode).toBe(200);

    const ended = await waitForRunEnd(app, c.apiKey, runId, 120_000);
    expect(ended.status).toBe('failed');
    const coupon = ended.tests.find((t: { testName: string }) => t.testName === 'Coupon');
    expect(coupon).toMatchObject({ status: 'failed', totals: { totalTests: 2, passedTests: 1, failedTests: 1, skippedTests: 0 } });
    expect(ended.manual).toBeNull();
    const junit = await app.inject({ url: '/report/fetch/Coupon/xml', headers: key(c) });
    expect(junit.statusCode, junit.body).toBe(200);
    expect(junit.body).toContain('name="Coupon on iPhone 15 · Safari"');
    expect(junit.body).toContain('<failure message="Step 2 failed: Enter the coupon WINTER10">');
    const html = await app.inject({ url: '/report/fetch/Coupon/html', headers: key(c) });
    expect(html.body).toContain('The total stayed at $24.00');
    expect(html.body).toContain('Tester</b>');
    expect(html.body).toMatch(/<img class="shot" src="data:image\//);
    const events = await app.db.select({ type: auditEvents.type }).from(auditEvents).where(eq(auditEvents.clientId, c.clientId));
    for (const type of ['manual.claimed', 'manual.step', 'manual.evidence', 'manual.submitted']) expect(events.map((e) => e.type)).toContain(type);
    expect(await mine()).toEqual([]);

    // The Frontend insight counts each execution as a test, beside the browser test of the same run.
    const insights = (await app.inject({ url: '/insight/fetch/all', headers: key(c) })).json();
    expect(insights['frontend-report']).toMatchObject({ totalTests: 4, passedTests: 3, failedTests: 1 });

    // A bug from the failed step carries its text, what the tester saw and the step's screenshot.
    const prefill = await app.inject({ url: `/operator/clients/${c.clientId}/bugs/prefill?runTestId=${coupon.runTestId}`, headers: operator });
    expect(prefill.statusCode, prefill.body).toBe(200);
    expect(prefill.json()).toMatchObject({
      expected: 'The total drops by 10 %',
      actual: expect.stringContaining('The total stayed at $24.00'),
      environment: { device: 'iPhone 15 · Safari 18.1 · iOS 18.1' },
      evidence: [expect.objectContaining({ kind: 'screenshot', name: expect.stringContaining('cart_after_coupon.png') })],
    });
    expect(prefill.json().steps).toContain('Step 2: Enter the coupon WINTER10 — failed');
  });

  it('leaves manual cases out of a run asked for automated tests only', { timeout: 150_000 }, async () => {
    const id = await run('?automatedOnly=true');
    const ended = await waitForRunEnd(app, c.apiKey, id, 120_000);
    expect(ended.tests.map((t: { testName: string }) => t.testName)).toEqual(['home']);
    expect(ended.status).toBe('passed');
  });

  it('ends a case nobody executed by its due time as not run, never as passed', { timeout: 150_000 }, async () => {
    const put = await app.inject({ method: 'PUT', url: `/operator/clients/${c.clientId}/manual-settings`, headers: operator, payload: { dueHours: 1, workingDaysOnly: false } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await app.inject({ method: 'PUT', url: `/operator/clients/${c.clientId}/manual-settings`, headers: operator, payload: { dueHours: 0, workingDaysOnly: false } })).json().message).toContain('dueHours must be at least 1');
    const id = await run();
    const d = await detail(id);
    expect(Date.parse(d.manual!.dueAt) - Date.parse(d.createdAt)).toBe(3600_000);
    const runTestId = d.tests.find((t) => t.testName === 'Coupon')!.runTestId;
    // An hour later, as the workers' maintenance finds it.
    await app.db.update(manualWork).set({ dueAt: new Date(Date.now() - 1000) }).where(eq(manualWork.runTestId, runTestId));
    expect(await expireOverdueManualWork(app.engine.deps)).toBe(1);
    const ended = await waitForRunEnd(app, c.apiKey, id, 120_000);
    const coupon = ended.tests.find((t: { testName: string }) => t.testName === 'Coupon');
    expect(coupon.status).toBe('error');
    expect(coupon.error).toMatch(/^not run: no tester executed it on iPhone 15 · Safari by its due time, /);
    expect(ended.status).toBe('error');
  });
});
