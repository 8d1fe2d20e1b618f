import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AfterDeployReport, type HealingDecisionResponse, type HealingProposal, type HealingProposalsResponse, type RunHealsResponse, type RunHistoryDetail, type SuiteDiffResponse } from '@fullstop/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HealingSite, startHealingSite } from '../../../../packages/engine/test/fixtures/healing-site.ts';
import { auditEvents, engineSuites, locatorFingerprints } from '../../src/db/schema/index.ts';
import { buildTestApp, createTestClient, type TestClient } from '../helpers/app.ts';
import { importSuite, key, manifest, operator, OPERATOR_TOKEN, runAndWait, waitForRunEnd } from './helpers.ts';

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
// Through the server and real Chromium, against the engine's healing fixture site in its two versions; the last run is a
// deploy's, followed by a re-crawl whose patch keeps the hand-written test (decision 0103).
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

  let fourthRunId: string;
  it('a rejection needs a note, is stored and audited', async () => {
    // The site goes back: version 2's new locator heals to the old label, and that is proposed in its turn.
    site.setVersion('v1');
    const fourth = await run();
    expect(fourth.status).toBe('failed');
    const [back] = await proposals();
    expect(back).toMatchObject({ runId: fourth.runId, fromVersion: 2, proposedVersion: 3, status: 'proposed' });
    expect(back!.heals[0]).toMatchObject({ oldLocator: SEND_MESSAGE, newLocator: SEND });
    fourthRunId = fourth.runId;

    expect((await decide(back!, 'reject', {})).statusCode).toBe(400);
    const rejected = await decide(back!, 'reject', { note: 'the label "Send" is a bug of the site, not a change' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json<HealingDecisionResponse>().proposal).toMatchObject({ status: 'rejected', note: 'the label "Send" is a bug of the site, not a change' });
    expect((await audits('healing.rejected')).map((e) => e.details)).toEqual([expect.objectContaining({ proposalId: back!.id, note: 'the label "Send" is a bug of the site, not a change' })]);
    expect((await versions()).find((v) => v.isCurrent)?.version).toBe(2);
  }, 480_000);

  // The deploy's run is the next run after the rejection, on the page as it was when rejected (the site still v1): the
  // one run shows that a rejected heal is not proposed again, and what a deploy's run and its re-crawl report.
  it('after a deploy: the run still heals what was rejected and proposes nothing again, says what healed and what needs a person, and a re-crawl proposes a patch that keeps the hand-written test', async () => {
    // As a client's deploy pipeline starts it: the CI runner the server serves, with plain Node, `--after-deploy`.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const dir = await mkdtemp(path.join(tmpdir(), 'fullstop-deploy-'));
    const script = path.join(dir, 'fullstop-ci.mjs');
    await writeFile(script, await (await fetch(`${server}/ci/fullstop-ci.mjs`)).text());
    const ci = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { PATH: process.env.PATH, FULLSTOP_API_KEY: a.apiKey, FULLSTOP_SERVER: server, FULLSTOP_POLL_MS: '500' };
      execFile(process.execPath, [script, '--after-deploy', '--timeout', '600'], { cwd: dir, timeout: 660_000, env }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
      );
    });
    await rm(dir, { recursive: true, force: true });
    expect(ci.code, ci.stderr).toBe(1);
    const runId = /Fullstop QA run (\S+):/.exec(ci.stdout)?.[1] ?? '';
    expect(ci.stdout).toContain(
      'After the deploy:\n  1 test (Contact form) found an element the site changed: it was found again, and the change to the test is proposed to our QA team.\n  No failure needs a person.\n',
    );
    const deployRun = { runId };
    // The rejected heal: the run still fails healed, and nothing new is proposed (no proposal, no suite version by healing).
    expect((await app.inject({ url: `/test/runs/${runId}`, headers: key(a) })).json<{ status: string }>().status).toBe('failed');
    const heals = await app.inject({ url: `/test/runs/${runId}/heals`, headers: key(a) });
    expect(heals.json<RunHealsResponse>().tests[0]?.cases[0]?.healed[0]).toMatchObject({ oldLocator: SEND_MESSAGE, newLocator: SEND });
    expect((await proposals()).map((p) => p.runId)).toEqual([fourthRunId, proposal.runId]);
    expect((await versions()).filter((v) => v.importedBy?.startsWith('healing')).map((v) => v.version)).toEqual([2, 3]);
    // The portal's run page knows to show the section.
    const history = await app.inject({ url: `/test/history/${deployRun.runId}`, headers: key(a) });
    expect(history.json<RunHistoryDetail>().afterDeploy).toBe(true);

    const afterDeploy = async () => {
      const res = await app.inject({ url: `/test/runs/${deployRun.runId}/after-deploy`, headers: key(a) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<AfterDeployReport>();
    };
    let report = await afterDeploy();
    // Healed, as the rejected heal still is; nothing else failed.
    expect(report.healed).toEqual([{ testName: 'Contact form', cases: 1 }]);
    expect(report.needPerson).toEqual([]);
    while (['waiting', 'crawling', 'writing'].includes(report.recrawl.status)) {
      await new Promise((r) => setTimeout(r, 500));
      report = await afterDeploy();
    }
    expect(report.recrawl, JSON.stringify(report.recrawl)).toMatchObject({ status: 'done', version: 4, kept: 1 });
    expect(report.recrawl.added.map((t) => t.page)).toContain('/');
    expect(report.recrawl.removed).toEqual([]);
    expect(report.recrawl.message).toMatch(/^The re-crawl proposes suite version 4 for our QA team to review\. Adds \d+ tests for \/;/);
    expect(report.words).toEqual([
      '1 test (Contact form) found an element the site changed: it was found again, and the change to the test is proposed to our QA team.',
      'No failure needs a person.',
      report.recrawl.message,
    ]);
    // The proposal is a version for review, not current, named after the deploy's run; the hand-written test is in it as it was.
    const v4 = (await versions()).find((v) => v.version === 4)!;
    expect(v4).toMatchObject({ isCurrent: false, importedBy: `crawl proposal (deploy, run ${deployRun.runId.slice(0, 8)})` });
    expect(await suiteFile(4, 'contact.spec.ts')).toBe(SPEC);
    // Asked again, the re-crawl is the same one: a report read never starts another.
    expect((await afterDeploy()).recrawl.version).toBe(4);
    expect((await versions()).map((v) => v.version)).toEqual([1, 2, 3, 4]);

    // Version 4 made current, the next deploy's re-crawl finds nothing to add or remove, and writes no version. The
    // re-crawl patches the current suite whatever the run ran: that deploy runs one test the first re-crawl added, its
    // accessibility check where there is one (no Playwright run of its own). All three tests cost two attempts more, and
    // version 4's hand-written test, with no fingerprints yet, heals nothing on this site: it waited for its 60 s timeout.
    expect((await app.inject({ method: 'POST', url: `${base()}/suites/4/current`, headers: operator })).statusCode).toBe(200);
    const addedNames = new Set(report.recrawl.added.map((t) => t.name));
    const addedTests = v4.manifest.groups.flatMap((g) => g.tests).filter((t) => addedNames.has(t.name));
    const trigger = addedTests.find((t) => t.kind === 'accessibility') ?? addedTests[0]!;
    const next = await app.inject({ url: `/test/run/${encodeURIComponent(trigger.name)}?afterDeploy=true`, headers: key(a) });
    expect(next.statusCode, next.body).toBe(200);
    const nextRunId = next.json<{ runId: string }>().runId;
    await waitForRunEnd(app, a.apiKey, nextRunId, 420_000);
    let again: AfterDeployReport;
    do {
      await new Promise((r) => setTimeout(r, 500));
      again = (await app.inject({ url: `/test/runs/${nextRunId}/after-deploy`, headers: key(a) })).json<AfterDeployReport>();
    } while (['waiting', 'crawling', 'writing'].includes(again.recrawl.status));
    expect(again.recrawl).toMatchObject({ status: 'done', version: null, added: [], removed: [], message: expect.stringMatching(/^The re-crawl found nothing to add or remove: the suite keeps its \d+ tests as they are\.$/) });
    expect((await versions()).map((v) => v.version)).toEqual([1, 2, 3, 4]);
  }, 900_000);

  it('keeps proposals to operators and heals to the run’s own client', async () => {
    const b = await createTestClient(app, { website: site.url });
    expect((await app.inject({ url: `${base()}/healing/proposals`, headers: key(a) })).statusCode).toBe(403);
    expect((await app.inject({ url: `/test/runs/${proposal.runId}/heals`, headers: key(b) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/operator/clients/${b.clientId}/healing/proposals/${proposal.id}/accept`, headers: operator })).statusCode).toBe(404);
    // A run not started after a deploy has no after-deploy report; another client's run is not found.
    const plain = await app.inject({ url: `/test/runs/${proposal.runId}/after-deploy`, headers: key(a) });
    expect([plain.statusCode, plain.json().message]).toEqual([404, 'This run was not started after a deploy: start one with afterDeploy=true']);
    expect((await app.inject({ url: `/test/runs/${proposal.runId}/after-deploy`, headers: key(b) })).json().message).toBe('Run not found');
    const wrong = await app.inject({ url: '/test/run/all?afterDeploy=maybe', headers: key(a) });
    expect([wrong.statusCode, wrong.json().message]).toEqual([400, expect.stringContaining('afterDeploy must be true or false')]);
  });
});
