import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Bug, VisualDecisionResponse, VisualReviewResponse, VisualReviewShot } from '@fullstop/contracts';
import { and, eq, inArray, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CTA_BOX, startVisualSite, type VisualSite } from '../../../../packages/engine/test/fixtures/visual-site.ts';
import { auditEvents, engineRuns, engineRunTests, visualBaselines, visualCandidates } from '../../src/db/schema/index.ts';
import { bearer, buildTestApp, createTestClient, login, type TestClient } from '../helpers/app.ts';
import { importSuite, key, manifest, operator, OPERATOR_TOKEN, runAndWait } from './helpers.ts';

// Issue 27, decision 0082: a visual test's shots through the server and a real runner on Debian's Chromium. Its
// baselines come from approved runs; a reviewer approves or rejects each changed shot, and may open a bug from one.
describe('visual review: baselines set by approval, through the server and real Chromium', () => {
  let app: FastifyInstance;
  let site: VisualSite;
  let a: TestClient;
  let b: TestClient;
  const runs: string[] = [];

  beforeAll(async () => {
    site = await startVisualSite();
    app = await buildTestApp({ env: { OPERATOR_TOKEN, ENGINE_ALLOW_PRIVATE_TARGETS: true, ENGINE_REPORT_PDF: false } });
    await app.engine.startWorkers(1);
    a = await createTestClient(app, { website: site.url });
    b = await createTestClient(app, { website: site.url });
    const imported = await importSuite(app, a.clientId, { 'suite.json': manifest({ Looks: [{ name: 'Shop looks right', kind: 'visual', options: { pages: ['/'] } }] }) });
    expect(imported.statusCode, imported.body).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  const review = async (runId: string, headers: Record<string, string> = key(a)) => {
    const res = await app.inject({ url: `/test/runs/${runId}/visual`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<VisualReviewResponse>();
  };
  const onlyShot = (r: VisualReviewResponse): VisualReviewShot => {
    expect(r.tests).toHaveLength(1);
    expect(r.tests[0]!.shots).toHaveLength(1);
    return r.tests[0]!.shots[0]!;
  };
  const base = (runId: string) => `/operator/clients/${a.clientId}/runs/${runId}/visual`;
  const decide = async (runId: string, candidateId: string, action: 'approve' | 'reject' | 'bug', payload?: object) => {
    const res = await app.inject({ method: 'POST', url: `${base(runId)}/candidates/${candidateId}/${action}`, headers: operator, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<VisualDecisionResponse>();
  };
  /** The image behind a review link, served like any evidence screenshot. */
  const image = async (url: string | undefined) => {
    const res = await app.inject({ url: url! });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    return res.rawPayload;
  };
  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const run = async () => {
    const detail = await runAndWait(app, a, 'all', 120_000);
    runs.push(detail.runId as string);
    return detail;
  };
  const audits = (type: string) => app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, a.clientId), eq(auditEvents.type, type)));
  const currentBaseline = async () =>
    app.db.select().from(visualBaselines).where(and(eq(visualBaselines.clientId, a.clientId), eq(visualBaselines.isCurrent, true)));

  it('offers the first run’s shot as new, and approving it makes it the baseline (audited)', async () => {
    const first = await run();
    expect(first.status, JSON.stringify(first)).toBe('passed');
    const shot = onlyShot(await review(runs[0]!));
    expect(shot).toMatchObject({ page: '/', cell: 'chromium/desktop', status: 'new', baseline: null, diff: null, review: { state: 'pending', comparedWithCurrent: true } });
    const png = await image(shot.current?.url);

    const approved = await decide(runs[0]!, shot.review!.candidateId, 'approve');
    expect(approved.baselineVersion).toBe(1);
    expect(approved.message).toMatch(/^"\/" on Chromium · desktop approved: it is the baseline of later runs \(version 1\)/);
    expect(approved.review.state).toBe('approved');
    const [baseline] = await currentBaseline();
    expect(baseline).toMatchObject({ version: 1, sha256: sha(png), testName: 'Shop looks right', runId: runs[0] });
    expect((await audits('visual.approved')).map((e) => e.details)).toEqual([expect.objectContaining({ candidateId: shot.review!.candidateId, version: 1, replaced: null })]);

    // Twice is a conflict, not a second version.
    const again = await app.inject({ method: 'POST', url: `${base(runs[0]!)}/candidates/${shot.review!.candidateId}/approve`, headers: operator });
    expect(again.statusCode).toBe(409);
  }, 180_000);

  it('flags a 4 px move of one button with a region covering it, shows baseline, current and diff, and rejecting keeps the baseline', async () => {
    site.setVariant('moved');
    const second = await run();
    expect(second.status).toBe('failed');
    const shot = onlyShot(await review(runs[1]!));
    expect(shot.status).toBe('changed');
    expect(shot.share).toMatch(/%$/);
    expect(shot.changedPixels).toBeGreaterThan(100);
    const r = shot.region!;
    // The button was at x 100-220 and is at 104-224 now: the region holds both edges that moved, and no more.
    expect(r.x).toBeGreaterThanOrEqual(CTA_BOX.x - 2);
    expect(r.x).toBeLessThanOrEqual(CTA_BOX.x + 4);
    expect(r.x + r.width).toBeGreaterThanOrEqual(CTA_BOX.x + CTA_BOX.width);
    expect(r.x + r.width).toBeLessThanOrEqual(CTA_BOX.x + CTA_BOX.width + 6);
    expect(r.y).toBeGreaterThanOrEqual(CTA_BOX.y - 2);
    expect(r.y + r.height).toBeLessThanOrEqual(CTA_BOX.y + CTA_BOX.height + 2);
    const [baselineBytes] = [await image(shot.baseline?.url), await image(shot.current?.url), await image(shot.diff?.url)];
    expect(sha(baselineBytes)).toBe((await currentBaseline())[0]!.sha256);

    const rejected = await decide(runs[1]!, shot.review!.candidateId, 'reject', { note: 'the button must not move' });
    expect(rejected.message).toBe('"/" on Chromium · desktop rejected: the baseline stays as it was');
    expect(rejected.review).toMatchObject({ state: 'rejected', note: 'the button must not move', decidedBy: expect.any(String) });
    expect((await currentBaseline()).map((x) => x.version)).toEqual([1]);
    expect((await audits('visual.rejected')).map((e) => e.details)).toEqual([expect.objectContaining({ candidateId: shot.review!.candidateId, note: 'the button must not move' })]);
    // Still moved, still compared with the approved baseline: it fails again.
    expect((await run()).status).toBe('failed');
    expect(onlyShot(await review(runs[2]!)).status).toBe('changed');
    // The console's runs feed says which runs have shots waiting for a decision.
    const feed = await app.inject({ url: `/operator/runs?clientId=${a.clientId}`, headers: operator });
    const waiting = Object.fromEntries(feed.json<{ runs: { runId: string; visualPending?: number }[] }>().runs.map((r) => [r.runId, r.visualPending]));
    expect(waiting).toEqual({ [runs[0]!]: undefined, [runs[1]!]: undefined, [runs[2]!]: 1 });
  }, 240_000);

  it('opens a bug from the rejected shot in one step, carrying its three images and what changed where', async () => {
    const shot = onlyShot(await review(runs[1]!));
    const opened = await decide(runs[1]!, shot.review!.candidateId, 'bug', { severity: 'high' });
    expect(opened.message).toMatch(/^"\/" on Chromium · desktop rejected; BUG-\d+ opened as a draft with its baseline, current and diff images$/);
    expect(opened.review.bugId).toBe(opened.bugId);
    const bug = (await app.inject({ url: `/operator/bugs/${opened.bugId}`, headers: operator })).json<Bug>();
    expect(bug).toMatchObject({ severity: 'high', status: 'draft', link: { testName: 'Shop looks right', runId: runs[1], runTestId: shot.review && expect.any(String) } });
    expect(bug.title).toBe('"/" on Chromium · desktop looks different from its baseline');
    expect(bug.attachments.map((x) => x.name)).toEqual(['baseline.png', 'current.png', 'diff.png']);
    expect(bug.actual).toContain(`${shot.share} of pixels (${shot.changedPixels}) changed, in the region ${shot.region!.width} × ${shot.region!.height} px at ${shot.region!.x}, ${shot.region!.y}`);
    expect(bug.actual).toContain("Reviewer's note: the button must not move");
    expect((await audits('visual.bug')).length).toBe(1);
    // One bug per shot.
    const twice = await app.inject({ method: 'POST', url: `${base(runs[1]!)}/candidates/${shot.review!.candidateId}/bug`, headers: operator, payload: {} });
    expect(twice.statusCode).toBe(409);
  });

  it('approving, then running again, passes; an earlier report keeps its own images', async () => {
    const before = onlyShot(await review(runs[1]!));
    const earlierBaseline = sha(await image(before.baseline?.url));
    const reportFile = path.join(app.paths.runs, a.clientId, runs[1]!);

    const all = await app.inject({ method: 'POST', url: `${base(runs[2]!)}/approve-all`, headers: operator });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({ message: '1 shot approved: the baselines of later runs.', approved: 1, stale: 0 });
    expect((await currentBaseline()).map((x) => x.version)).toEqual([2]);

    const next = await run();
    expect(next.status, JSON.stringify(next)).toBe('passed');
    expect(onlyShot(await review(runs[3]!))).toMatchObject({ status: 'unchanged', review: null });

    // The earlier run still shows the baseline it was compared with, not the new one.
    const after = onlyShot(await review(runs[1]!));
    expect(sha(await image(after.baseline?.url))).toBe(earlierBaseline);
    expect(earlierBaseline).not.toBe((await currentBaseline())[0]!.sha256);
    const html = await readFile(path.join(reportFile, (await review(runs[1]!)).tests[0]!.runTestId, 'reports', 'report.json'), 'utf8');
    expect(JSON.parse(html).summary.shots[0].baselineSha256).toBe(earlierBaseline);

    // Approving the older shot now is allowed, and says it was compared with a baseline no longer current.
    expect(after.review).toMatchObject({ state: 'rejected', comparedWithCurrent: false });
    const late = await decide(runs[1]!, after.review!.candidateId, 'approve');
    expect(late.baselineVersion).toBe(3);
    expect(late.message).toMatch(/It was compared with an older baseline, not with version 2 \(approved \d{4}-\d\d-\d\d by .+\), which it replaces\.$/);
    expect((await audits('visual.approved')).length).toBe(3);
  }, 180_000);

  it('lets operators only decide; another client’s owner gets 404 for every id; bad ids are 400 or 404', async () => {
    const shot = onlyShot(await review(runs[2]!));
    const candidateId = shot.review!.candidateId;
    const ownerB = bearer((await login(app, b.email, b.password)).accessToken);
    const ownerA = bearer((await login(app, a.email, a.password)).accessToken);

    // The portal's read-only view: a's owner reads it, b's owner and key do not find a's run.
    expect((await review(runs[2]!, ownerA)).tests).toHaveLength(1);
    for (const headers of [ownerB, key(b)]) {
      const res = await app.inject({ url: `/test/runs/${runs[2]}/visual`, headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Run not found');
    }
    // Clients never decide: 403 on every operator route, even their own run's.
    for (const url of [`${base(runs[2]!)}`, `${base(runs[2]!)}/approve-all`, `${base(runs[2]!)}/candidates/${candidateId}/approve`, `${base(runs[2]!)}/candidates/${candidateId}/reject`]) {
      const method = url === base(runs[2]!) ? 'GET' : 'POST';
      expect((await app.inject({ method, url, headers: ownerA, payload: {} })).statusCode, url).toBe(403);
    }
    // An operator naming the wrong client, run or shot finds nothing.
    const wrongClient = `/operator/clients/${b.clientId}/runs/${runs[2]}/visual`;
    expect((await app.inject({ url: wrongClient, headers: operator })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `${wrongClient}/candidates/${candidateId}/approve`, headers: operator })).statusCode).toBe(404);
    const otherRun = await app.inject({ method: 'POST', url: `${base(runs[0]!)}/candidates/${candidateId}/reject`, headers: operator, payload: {} });
    expect(otherRun.statusCode).toBe(404);
    expect(otherRun.json().message).toBe('Visual shot not found in this run');
    const badId = await app.inject({ method: 'POST', url: `${base(runs[2]!)}/candidates/not%20an%20id/approve`, headers: operator });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toMatch(/id may contain only letters, digits/);
    const longNote = await app.inject({ method: 'POST', url: `${base(runs[2]!)}/candidates/${candidateId}/reject`, headers: operator, payload: { note: 'x'.repeat(2001) } });
    expect(longNote.statusCode).toBe(400);
    // An approved shot is not rejected.
    const rejectApproved = await app.inject({ method: 'POST', url: `${base(runs[2]!)}/candidates/${candidateId}/reject`, headers: operator, payload: {} });
    expect(rejectApproved.statusCode).toBe(409);
    // Nothing was decided by any of these.
    expect((await app.db.select().from(auditEvents).where(and(eq(auditEvents.clientId, b.clientId), like(auditEvents.type, 'visual.%')))).length).toBe(0);
  });

  it('lets a run’s candidates go with the run when retention deletes it; the baselines approved from it stay', async () => {
    // runs[0] and runs[1] are past the retention (runs[3] holds the test's latest result).
    const old = new Date(Date.now() - 400 * 24 * 3600 * 1000);
    for (const id of [runs[0]!, runs[1]!]) {
      await app.db.update(engineRuns).set({ createdAt: old, finishedAt: old }).where(eq(engineRuns.id, id));
      await app.db.update(engineRunTests).set({ createdAt: old, finishedAt: old }).where(eq(engineRunTests.runId, id));
    }
    expect((await app.db.select().from(visualCandidates).where(inArray(visualCandidates.runId, [runs[0]!, runs[1]!]))).length).toBe(2);
    await app.retention.sweep();
    expect(await app.db.select().from(visualCandidates).where(inArray(visualCandidates.runId, [runs[0]!, runs[1]!]))).toEqual([]);
    expect(existsSync(path.join(app.paths.runs, a.clientId, runs[1]!))).toBe(false);
    expect((await app.inject({ url: `/test/runs/${runs[1]}/visual`, headers: key(a) })).statusCode).toBe(404);
    // The current baseline came from runs[1] (approved late): its image is the baselines' own copy, still there.
    const [current] = await currentBaseline();
    expect(current!.runId).toBe(runs[1]);
    expect(await app.artifacts.stat(current!.artifactKey)).not.toBeNull();
    expect((await run()).status).toBe('passed');
  }, 120_000);

  // Issue 37: approving copies the shot's file into the baselines, which later runs and the portal serve. The file is
  // what the run left in its attempt's folder: a link there (the test's code can leave one) must never be followed.
  it('refuses to approve a shot whose file is a link or lies outside its attempt’s folder, copying nothing', async () => {
    // A run whose shot differs from the current baseline (the moved button is that baseline after the tests above).
    for (const variant of ['base', 'moved'] as const) {
      site.setVariant(variant);
      if ((await run()).status === 'failed') break;
    }
    const runId = runs.at(-1)!;
    const shot = onlyShot(await review(runId));
    expect(shot.review).toMatchObject({ state: 'pending' });
    const [candidate] = await app.db.select().from(visualCandidates).where(eq(visualCandidates.id, shot.review!.candidateId));
    const file = app.artifacts.localPath(candidate!.artifactKey)!;
    const original = await readFile(file);

    // Secrets a link could point at: the server's key beside the store, another client's file inside it.
    const serverKey = path.join(app.paths.dataDir, 'server-key');
    if (!existsSync(serverKey)) await writeFile(serverKey, 'a server key', { mode: 0o600 });
    const otherClients = path.join(app.paths.storage, 'uploads', b.clientId, 'secret.png');
    await mkdir(path.dirname(otherClients), { recursive: true });
    await writeFile(otherClients, 'another client’s file');
    const sibling = `${file}.sibling.png`;
    await writeFile(sibling, original);
    const secrets = [await readFile(serverKey), await readFile(otherClients)];

    const baselinesBefore = await app.db.select().from(visualBaselines).where(eq(visualBaselines.clientId, a.clientId));
    const approvedBefore = (await audits('visual.approved')).length;
    const stored = async () => {
      const out: Buffer[] = [];
      for await (const o of app.artifacts.list(`visual/${a.clientId}/`)) out.push(await readFile(app.artifacts.localPath(o.key)!));
      return out;
    };
    const storedBefore = (await stored()).length;
    // What approving the shot (alone, and with approve-all) answers, by case: every one is checked at the end.
    const outcomes: Record<string, { status: number; message: string }[]> = {};
    const tryApproving = async (why: string) => {
      const answers: { status: number; message: string }[] = [];
      for (const url of [`${base(runId)}/candidates/${candidate!.id}/approve`, `${base(runId)}/approve-all`]) {
        const res = await app.inject({ method: 'POST', url, headers: operator });
        answers.push({ status: res.statusCode, message: res.json().message });
      }
      outcomes[why] = answers;
    };
    const cases = ['a link to the server key', 'a link to another client’s file in the store', 'a link to a file of its own attempt', 'a key outside the attempt'];

    try {
      for (const [i, target] of [serverKey, otherClients, sibling].entries()) {
        await rm(file);
        await symlink(target, file);
        await tryApproving(cases[i]!);
      }
      // A recorded key outside the attempt's folder (another client's file), even to a regular file.
      await rm(file);
      await writeFile(file, original);
      const otherKey = `uploads/${b.clientId}/secret.png`;
      await app.db.update(visualCandidates).set({ artifactKey: otherKey }).where(eq(visualCandidates.id, candidate!.id));
      await tryApproving(cases[3]!);
      await app.db.update(visualCandidates).set({ artifactKey: candidate!.artifactKey }).where(eq(visualCandidates.id, candidate!.id));
      const refusal = { status: 409, message: "This shot's image is not a regular file in its run's own folder: it cannot become a baseline" };
      expect(outcomes).toEqual(Object.fromEntries(cases.map((why) => [why, [refusal, refusal]])));

      // Nothing was approved or copied: no baseline row, no audit, no file in the baselines holding a secret.
      expect(await app.db.select().from(visualBaselines).where(eq(visualBaselines.clientId, a.clientId))).toEqual(baselinesBefore);
      expect((await audits('visual.approved')).length).toBe(approvedBefore);
      const after = await stored();
      expect(after.length).toBe(storedBefore);
      for (const bytes of after) for (const secret of secrets) expect(bytes.equals(secret)).toBe(false);
      expect(onlyShot(await review(runId)).review).toMatchObject({ state: 'pending' });

      // The run's own file, a regular one, is approved as before.
      const approved = await decide(runId, candidate!.id, 'approve');
      expect(approved.review.state).toBe('approved');
      const [current] = await currentBaseline();
      expect(await readFile(app.artifacts.localPath(current!.artifactKey)!)).toEqual(original);
    } finally {
      await rm(sibling, { force: true });
      await rm(otherClients, { force: true });
    }
  }, 240_000);
});
