import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HealingDecisionResponse, HealingProposal, HealingProposalsResponse, RunHealsResponse, SuiteDiffResponse } from '@fullstop/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HealingSite, startHealingSite } from '../../../../packages/engine/test/fixtures/healing-site.ts';
import { auditEvents, engineSuites, locatorFingerprints } from '../../src/db/schema/index.ts';
import { buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
import { importSuite, key, manifest, operator, OPERATOR_TOKEN, runAndWait } from './helpers.ts';

const HELPERS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../packages/engine/test/fixtures/healing-suite/helpers.ts');
const SEND = "page.getByRole('button', { name: 'Send', exact: true })";
const SEND_MESSAGE = "page.getByRole('button', { name: 'Send message', exact: true })";
/** One test: the engine fixture's helper, whose line 7 clicks the button a new site relabels. */
const SPEC = `import { test } from '@playwright/test';
import { sendMessage } from './helpers';

test('sends a message', async ({ page }) => {
  await sendMessage(page, '/');
});
`;

// Issue 42, decision 0101 "The server's half": a browser test's fingerprints kept per suite version, a heal proposed as
// a suite version with the new locator written into the spec, accepted (current) or rejected (not proposed again).
// Through the server and real Chromium, against the engine's healing fixture site in its two versions.
describe('healed locators as proposed suite versions, through the server and real Chromium', () => {
  let app: FastifyInstance;
  let site: HealingSite;
  let a: TestClient;
  const base = () => `/operator/clients/${a.clientId}`;

  beforeAll(async () => {
    site = await startHealingSite();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true, ENGINE_REPORT_PDF: false } });
    await app.engine.startWorkers(1);
    a = await createTestClient(app, { website: site.url });
    const imported = await importSuite(app, a.clientId, {
      'suite.json': manifest({ Contact: [{ name: 'Contact form', kind: 'browser', options: { specs: 'contact.spec.ts', testTimeoutMs: 60_000 } }] }),
      'contact.spec.ts': SPEC,
      'helpers.ts': await readFile(HELPERS, 'utf8'),
    });
    expect(imported.statusCode, imported.body).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  // A loaded machine takes minutes to start a browser: the timeouts are generous, the healing itself takes 1-3 s.
  const run = () => runAndWait(app, a, 'all', 420_000);
  const proposals = async () => {
    const res = await app.inject({ url: `${base()}/healing/proposals`, headers: operator });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<HealingProposalsResponse>().proposals;
  };
  const decide = async (p: HealingProposal, action: 'accept' | 'reject', payload?: object) =>
    app.inject({ method: 'POST', url: `${base()}/healing/proposals/${p.id}/${action}`, headers: operator, ...(payload ? { payload } : {}) });
  const versions = () => app.db.select().from(engineSuites).where(eq(engineSuites.clientId, a.clientId)).orderBy(engineSuites.version);
  const suiteFile = async (version: number, file: string) => {
    const res = await app.inject({ url: `${base()}/suites/${version}/file?path=${encodeURIComponent(file)}`, headers: operator });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ content: string }>().content;
  };
  const audits = (type: string) => app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, a.clientId), eq(auditEvents.type, type)));

  it('keeps the fingerprints of a passing run per suite version and test', async () => {
    site.setVersion('v1');
    const first = await run();
    expect(first.status, JSON.stringify(first)).toBe('passed');
    const [v1] = await versions();
    const rows = await app.db.select().from(locatorFingerprints).where(eq(locatorFingerprints.suiteId, v1!.id));
    const send = rows.find((r) => r.site.locator === SEND.replace(/^page\./, ''));
    expect(send).toMatchObject({ testName: 'Contact form', clientId: a.clientId, site: { file: 'helpers.ts', line: 7 } });
    expect(send!.fingerprint).toMatchObject({ tag: 'button', name: 'Send', id: 'send' });
    expect(await proposals()).toEqual([]);
  }, 480_000);

  let proposal: HealingProposal;
  it('heals a relabelled button: the case fails "healed: …", a version is proposed with the new locator on that line', async () => {
    site.setVersion('v2');
    const second = await run();
    expect(second.status).toBe('failed');

    // The client's run detail says what healed, in words.
    const heals = await app.inject({ url: `/test/runs/${second.runId}/heals`, headers: key(a) });
    expect(heals.statusCode, heals.body).toBe(200);
    const [healedTest] = heals.json<RunHealsResponse>().tests;
    expect(healedTest?.cases[0]?.healed[0]).toMatchObject({ oldLocator: SEND, newLocator: SEND_MESSAGE, site: { file: 'helpers.ts', line: 7 } });
    expect(healedTest!.cases[0]!.healed[0]!.change).toContain('"Send" to "Send message"');
    // So does its HTML report.
    const link = await app.inject({ method: 'POST', url: `/test/history/${second.runId}/tests/${healedTest!.runTestId}/report/html/link`, headers: key(a) });
    expect(link.statusCode, link.body).toBe(200);
    const report = await app.inject({ url: link.json<{ url: string }>().url });
    expect(report.body).toContain('Healed locators');
    expect(report.body).toMatch(/Healed: The button.{1,6}s label changed from .{1,6}Send.{1,6} to .{1,6}Send message/);

    const [p] = await proposals();
    expect(p).toMatchObject({ runId: second.runId, fromVersion: 1, proposedVersion: 2, status: 'proposed' });
    expect(p!.heals).toHaveLength(1);
    expect(p!.heals[0]).toMatchObject({ patched: true, why: null, oldLocator: SEND, newLocator: SEND_MESSAGE, testName: 'Contact form', caseName: expect.stringContaining('sends a message') });
    proposal = p!;
    // Its screenshot is served as evidence, through the signed link the console shows.
    const shot = await app.inject({ url: p!.heals[0]!.screenshotUrl! });
    expect(shot.statusCode).toBe(200);
    expect(shot.headers['content-type']).toBe('image/png');

    // The proposed version is not current; its helper has the new locator on line 7, and the diff shows just that.
    const all = await versions();
    expect(all.map((v) => [v.version, v.isCurrent, v.importedBy])).toEqual([
      [1, true, expect.any(String)],
      [2, false, expect.stringMatching(/^healing \(run [0-9a-f]{8}\)$/)],
    ]);
    expect((await suiteFile(2, 'helpers.ts')).split('\n')[6]).toBe(`  await ${SEND_MESSAGE}.click();`);
    const diff = (await app.inject({ url: `${base()}/suites/diff?from=1&to=2`, headers: operator })).json<SuiteDiffResponse>();
    expect(diff.files.map((f) => f.path)).toEqual(['helpers.ts']);
    expect(diff.files[0]!.patch).toContain(`-  await ${SEND}.click();`);
    expect(diff.files[0]!.patch).toContain(`+  await ${SEND_MESSAGE}.click();`);
  }, 480_000);

  it('accepting makes the proposed version current (audited), and the next run passes without healing', async () => {
    const accepted = await decide(proposal, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<HealingDecisionResponse>()).toMatchObject({ message: expect.stringMatching(/^Suite version 2 is now current/), proposal: { status: 'accepted', decidedBy: expect.any(String) } });
    expect((await versions()).map((v) => v.isCurrent)).toEqual([false, true]);
    expect((await audits('healing.accepted')).map((e) => e.details)).toEqual([expect.objectContaining({ proposalId: proposal.id, version: 2, previous: 1 })]);
    expect((await audits('suite.current')).map((e) => e.details)).toEqual([expect.objectContaining({ version: 2, previous: 1, via: 'healing' })]);
    // Decided once.
    expect((await decide(proposal, 'reject', { note: 'too late' })).statusCode).toBe(409);

    const third = await run();
    expect(third.status, JSON.stringify(third)).toBe('passed');
    const heals = await app.inject({ url: `/test/runs/${third.runId}/heals`, headers: key(a) });
    expect(heals.json<RunHealsResponse>().tests).toEqual([]);
    expect(await proposals()).toHaveLength(1);
  }, 480_000);

  it('a rejection needs a note, is stored and audited, and the same heal is not proposed again', async () => {
    // The site goes back: version 2's new locator heals to the old label, and that is proposed in its turn.
    site.setVersion('v1');
    const fourth = await run();
    expect(fourth.status).toBe('failed');
    const [back] = await proposals();
    expect(back).toMatchObject({ runId: fourth.runId, fromVersion: 2, proposedVersion: 3, status: 'proposed' });
    expect(back!.heals[0]).toMatchObject({ oldLocator: SEND_MESSAGE, newLocator: SEND });

    expect((await decide(back!, 'reject', {})).statusCode).toBe(400);
    const rejected = await decide(back!, 'reject', { note: 'the label "Send" is a bug of the site, not a change' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json<HealingDecisionResponse>().proposal).toMatchObject({ status: 'rejected', note: 'the label "Send" is a bug of the site, not a change' });
    expect((await audits('healing.rejected')).map((e) => e.details)).toEqual([expect.objectContaining({ proposalId: back!.id, note: 'the label "Send" is a bug of the site, not a change' })]);
    expect((await versions()).find((v) => v.isCurrent)?.version).toBe(2);

    // The page is as it was when rejected: the run still fails healed, and nothing new is proposed.
    const fifth = await run();
    expect(fifth.status).toBe('failed');
    const heals = await app.inject({ url: `/test/runs/${fifth.runId}/heals`, headers: key(a) });
    expect(heals.json<RunHealsResponse>().tests[0]?.cases[0]?.healed[0]).toMatchObject({ oldLocator: SEND_MESSAGE, newLocator: SEND });
    expect((await proposals()).map((p) => p.runId)).toEqual([fourth.runId, proposal.runId]);
    expect((await versions()).map((v) => v.version)).toEqual([1, 2, 3]);
  }, 900_000);

  it('keeps proposals to operators and heals to the run’s own client', async () => {
    const b = await createTestClient(app, { website: site.url });
    expect((await app.inject({ url: `${base()}/healing/proposals`, headers: key(a) })).statusCode).toBe(403);
    expect((await app.inject({ url: `/test/runs/${proposal.runId}/heals`, headers: key(b) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/operator/clients/${b.clientId}/healing/proposals/${proposal.id}/accept`, headers: operator })).statusCode).toBe(404);
  });
});
