import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import {
  type BugSeverity,
  cellLabel,
  type VisualApproveAllResponse,
  type VisualDecisionResponse,
  type VisualReview,
  type VisualReviewImage,
  type VisualReviewResponse,
  type VisualReviewShot,
  type VisualShot,
  visualShare,
} from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { artifactKey } from '../../lib/artifact-store/index.ts';
import { audit } from '../../lib/audit.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { attemptFolder, runTestKey } from '../../lib/run-paths.ts';
import { operatorName } from '../accounts/index.ts';
import { type BugCaller, bugService, type EvidenceSource } from '../bugs/index.ts';
import { EVIDENCE_LINK_TTL_SECONDS, evidenceFileUrl, objectInside } from '../evidence/index.ts';
import { findClientRun } from '../runs/index.ts';
import { baselineArtifactKey, visualSummaryOf } from './engine-hooks.ts';
import {
  approveCandidate,
  type BaselineRow,
  type CandidateRow,
  candidatesOfRun,
  currentBaselines,
  findCandidate,
  rejectCandidate,
  setCandidateBug,
  visualRunTests,
} from './repository.ts';

const SHOT_NOT_FOUND = 'Visual shot not found in this run';
const SHOT_GONE = "This shot's image is no longer stored: its run's files were deleted";
const SHOT_NOT_A_RUN_FILE = "This shot's image is not a regular file in its run's own folder: it cannot become a baseline";
/** Changed shots first (what a reviewer is here for), then those that could not be compared, then new, then the rest. */
const STATUS_ORDER: Record<VisualShot['status'], number> = { changed: 0, failed: 1, new: 2, unchanged: 3 };

const cellOf = (c: Pick<CandidateRow, 'engine' | 'device'>) => cellLabel(`${c.engine}/${c.device}`);
const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Whether the shot was compared with what is the key's baseline now (a new shot: whether there is still none). */
function comparedWithCurrent(candidate: CandidateRow, current: BaselineRow | undefined): boolean {
  return (current?.sha256 ?? null) === candidate.comparedWith;
}

function reviewOf(candidate: CandidateRow, current: BaselineRow | undefined): VisualReview {
  return {
    candidateId: candidate.id,
    state: candidate.status,
    decidedBy: candidate.decidedByName,
    decidedAt: candidate.decidedAt?.toISOString() ?? null,
    note: candidate.note,
    bugId: candidate.bugId,
    comparedWithCurrent: comparedWithCurrent(candidate, current),
  };
}

/** Reviewing visual shots: the run's view for both sides, and the operator's decisions, each audited. */
export function visualService(app: FastifyInstance) {
  const { db } = app;
  const store = app.artifacts;
  const bugs = bugService(app);

  async function runOf(clientId: string, runId: string) {
    const run = await findClientRun(db, clientId, runId);
    if (!run) throw new NotFoundError('Run not found');
    return run;
  }

  async function candidateOf(clientId: string, runId: string, candidateId: string): Promise<CandidateRow> {
    await runOf(clientId, runId);
    const candidate = await findCandidate(db, clientId, runId, candidateId);
    if (!candidate) throw new NotFoundError(SHOT_NOT_FOUND);
    return candidate;
  }

  const nameOf = (caller: BugCaller) => operatorName(db, caller.principal.userId);

  /** The decision's audit row, written in the decision's own transaction (`tx`): no decision goes unrecorded. */
  async function record(tx: Db, caller: BugCaller, type: `visual.${string}`, candidate: CandidateRow, details: Record<string, unknown>) {
    await audit(
      tx,
      caller.log,
      {
        type,
        clientId: candidate.clientId,
        userId: caller.principal.userId,
        address: caller.address,
        details: { candidateId: candidate.id, runId: candidate.runId, runTestId: candidate.runTestId, key: candidate.key, page: candidate.page, cell: `${candidate.engine}/${candidate.device}`, sha256: candidate.sha256, ...details },
      },
      { required: true },
    );
  }

  /**
   * The stored image a candidate stands for, to be copied into the baselines (issue 37): only a regular file inside
   * the folder of the candidate's own attempt. Its key comes from what the runner reported, and in the data directory
   * a test's code can leave a link in its folder to any file this process can read (the server's key, another
   * client's run): a link, or a key or real path outside the attempt's folder, is refused with a 409, never followed.
   */
  async function candidateImage(candidate: CandidateRow): Promise<{ key: string; size: number }> {
    const folder = artifactKey(runTestKey(candidate.clientId, candidate.runId, candidate.runTestId), attemptFolder(candidate.attempt));
    let clean: string | null = null;
    try {
      clean = artifactKey(candidate.artifactKey);
    } catch {
      // Not a clean key (a `..`, a backslash): refused below.
    }
    if (clean !== candidate.artifactKey || !clean.startsWith(`${folder}/`)) throw new ConflictError(SHOT_NOT_A_RUN_FILE);
    const local = store.localPath(clean);
    if (local !== null) {
      // No link anywhere from the store's top folder down (a link in the path would pass for a regular file).
      const [top, ...rest] = clean.split('/');
      const [entry, real, realTop] = await Promise.all([lstat(local).catch(() => null), realpath(local).catch(() => null), realpath(store.localPath(top!)!).catch(() => null)]);
      if (!entry) throw new ConflictError(SHOT_GONE);
      if (!entry.isFile() || !real || !realTop || real !== path.join(realTop, ...rest)) throw new ConflictError(SHOT_NOT_A_RUN_FILE);
    }
    const found = await objectInside(store, folder, clean.slice(folder.length + 1));
    if (!found) throw new ConflictError(local !== null ? SHOT_NOT_A_RUN_FILE : SHOT_GONE);
    return found;
  }

  /** The shot of the run test's summary a candidate stands for. */
  async function shotOf(candidate: CandidateRow): Promise<VisualShot | null> {
    const rts = await visualRunTests(db, candidate.clientId, candidate.runId);
    const summary = visualSummaryOf(rts.find((r) => r.id === candidate.runTestId)?.summary);
    return summary?.shots.find((s) => s.key === candidate.key && s.candidate) ?? null;
  }

  async function approve(caller: BugCaller, candidate: CandidateRow): Promise<{ review: VisualReview; version: number; stale: boolean; message: string }> {
    if (candidate.status === 'approved') throw new ConflictError('This shot is already approved: it is the baseline of later runs');
    const before = (await currentBaselines(db, candidate.clientId, [candidate.key])).get(candidate.key);
    const stale = !comparedWithCurrent(candidate, before);
    const target = baselineArtifactKey(candidate.clientId, candidate.key, candidate.sha256);
    const image = await candidateImage(candidate);
    const source = await store.get(image.key);
    if (!source) throw new ConflictError(SHOT_GONE);
    await store.put(target, source.body, { contentType: 'image/png', size: source.size });
    const by = await nameOf(caller);
    const approved = await approveCandidate(db, candidate, { artifactKey: target, userId: caller.principal.userId, by, at: new Date() }, (tx, done) =>
      record(tx, caller, 'visual.approved', done.candidate, { version: done.baseline.version, replaced: before?.version ?? null, comparedWithCurrent: !stale }),
    );
    if (!approved) throw new ConflictError('This shot is already approved: it is the baseline of later runs');
    const { baseline, candidate: updated } = approved;
    const where = `"${candidate.page}" on ${cellOf(candidate)}`;
    const staleWords = !stale
      ? ''
      : before
        ? ` It was compared with ${candidate.comparedWith ? 'an older baseline' : 'no baseline'}, not with version ${before.version} (approved ${before.approvedAt.toISOString().slice(0, 10)} by ${before.approvedByName}), which it replaces.`
        : ' It was compared with a baseline that is no longer current.';
    return {
      review: reviewOf(updated, baseline),
      version: baseline.version,
      stale,
      message: `${where} approved: it is the baseline of later runs (version ${baseline.version}); earlier reports keep their own images.${staleWords}`,
    };
  }

  async function reject(caller: BugCaller, candidate: CandidateRow, note: string | null, bugId?: string): Promise<CandidateRow> {
    if (candidate.status === 'approved') throw new ConflictError('This shot is already approved: approve or reject a later run’s shot to change the baseline again');
    if (candidate.status === 'rejected') return candidate;
    const by = await nameOf(caller);
    const updated = await rejectCandidate(db, candidate.id, { userId: caller.principal.userId, by, at: new Date(), note, ...(bugId ? { bugId } : {}) }, (tx, rejected) =>
      record(tx, caller, 'visual.rejected', rejected, { note }),
    );
    // Decided meanwhile: what it is now.
    return updated ?? (await findCandidate(db, candidate.clientId, candidate.runId, candidate.id)) ?? candidate;
  }

  return {
    /** A run's visual tests, each shot with its images (signed evidence links) and its review. */
    async review(clientId: string, runId: string): Promise<VisualReviewResponse> {
      await runOf(clientId, runId);
      const [rts, candidates] = await Promise.all([visualRunTests(db, clientId, runId), candidatesOfRun(db, clientId, runId)]);
      const current = await currentBaselines(db, clientId, [...new Set(candidates.map((c) => c.key))]);
      const byTestKey = new Map(candidates.map((c) => [`${c.runTestId}\n${c.key}`, c]));
      const counts = { changed: 0, pending: 0, approved: 0, rejected: 0 };
      for (const c of candidates) counts[c.status]++;
      const tests = rts.map((rt) => {
        const summary = visualSummaryOf(rt.summary);
        const attempt = attemptFolder(Math.max(rt.attempts, 1));
        const image = (rel: string | undefined, size?: { width: number; height: number }): VisualReviewImage | null =>
          rel
            ? {
                url: evidenceFileUrl(app.keys, { clientId, runId, runTestId: rt.id, path: path.posix.join(attempt, rel), kind: 'screenshot' }),
                width: size?.width ?? null,
                height: size?.height ?? null,
              }
            : null;
        const shots = [...(summary?.shots ?? [])].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
        counts.changed += shots.filter((s) => s.status === 'changed').length;
        return {
          runTestId: rt.id,
          testName: rt.testName,
          status: rt.status,
          shots: shots.map((s): VisualReviewShot => {
            const candidate = s.candidate ? byTestKey.get(`${rt.id}\n${s.key}`) : undefined;
            return {
              key: s.key,
              page: s.page,
              url: s.url,
              cell: s.cell,
              status: s.status,
              reason: s.reason ?? null,
              changedPixels: s.changedPixels ?? null,
              changedRatio: s.changedRatio ?? null,
              share: s.changedRatio === undefined ? null : visualShare(s.changedRatio),
              region: s.region ?? null,
              baseline: image(s.baseline?.path, s.baseline),
              current: image(s.current?.path, s.current),
              diff: image(s.diff),
              review: candidate ? reviewOf(candidate, current.get(candidate.key)) : null,
            };
          }),
        };
      });
      return { runId, clientId, tests, counts, expiresIn: EVIDENCE_LINK_TTL_SECONDS };
    },

    async approveOne(caller: BugCaller, clientId: string, runId: string, candidateId: string): Promise<VisualDecisionResponse> {
      const done = await approve(caller, await candidateOf(clientId, runId, candidateId));
      return { message: done.message, review: done.review, baselineVersion: done.version, bugId: null, bugNumber: null };
    },

    /** Every pending shot of the run: the remedy after a browser upgrade changed every shot slightly (0080). */
    async approveAll(caller: BugCaller, clientId: string, runId: string): Promise<VisualApproveAllResponse> {
      await runOf(clientId, runId);
      const pending = (await candidatesOfRun(db, clientId, runId)).filter((c) => c.status === 'pending');
      let stale = 0;
      for (const candidate of pending) if ((await approve(caller, candidate)).stale) stale++;
      const n = pending.length;
      const message =
        n === 0
          ? 'No shot of this run waits for a decision'
          : `${n} shot${n === 1 ? '' : 's'} approved: the baselines of later runs.${stale ? ` ${stale} of them had been compared with a baseline that is no longer current.` : ''}`;
      return { message, approved: n, stale };
    },

    async rejectOne(caller: BugCaller, clientId: string, runId: string, candidateId: string, note: string | undefined): Promise<VisualDecisionResponse> {
      const candidate = await candidateOf(clientId, runId, candidateId);
      const wasRejected = candidate.status === 'rejected';
      const updated = await reject(caller, candidate, note?.trim() || null);
      const current = (await currentBaselines(db, clientId, [candidate.key])).get(candidate.key);
      const message = wasRejected
        ? `"${candidate.page}" on ${cellOf(candidate)} was already rejected`
        : `"${candidate.page}" on ${cellOf(candidate)} rejected: the baseline stays as it was`;
      return { message, review: reviewOf(updated, current), baselineVersion: null, bugId: updated.bugId, bugNumber: null };
    },

    /** Rejects the shot when it still waits, and opens a bug carrying its three images and what changed where. */
    async openBug(caller: BugCaller, clientId: string, runId: string, candidateId: string, body: { note?: string | undefined; severity: BugSeverity; publish: boolean }): Promise<VisualDecisionResponse> {
      const candidate = await candidateOf(clientId, runId, candidateId);
      if (candidate.status === 'approved') throw new ConflictError('This shot is approved (it is the baseline now): there is no bug to open from it');
      if (candidate.bugId) throw new ConflictError('A bug is already open from this shot');
      const shot = await shotOf(candidate);
      if (!shot) throw new NotFoundError(SHOT_NOT_FOUND);
      const note = body.note?.trim() || candidate.note || null;
      const rejected = await reject(caller, candidate, note);

      const root = runTestKey(clientId, runId, candidate.runTestId);
      const files: EvidenceSource[] = [];
      const images: [string, string | undefined][] = [
        ['baseline.png', shot.baseline?.path],
        ['current.png', shot.current?.path],
        ['diff.png', shot.diff],
      ];
      for (const [name, rel] of images) {
        if (!rel) continue;
        const found = await objectInside(store, root, path.posix.join(attemptFolder(candidate.attempt), rel));
        if (found) files.push({ name, kind: 'screenshot', contentType: 'image/png', from: { key: found.key } });
      }
      const where = `"${shot.page}" on ${cellLabel(shot.cell)}`;
      const region = shot.region ? `${shot.region.width} × ${shot.region.height} px at ${shot.region.x}, ${shot.region.y}` : 'not measured';
      const share = shot.changedRatio === undefined ? 'not compared' : `${visualShare(shot.changedRatio)} of pixels (${shot.changedPixels ?? 0})`;
      const actual = [
        `${where} differs from its approved baseline: ${share} changed, in the region ${region}.`,
        shot.reason ? `Reason: ${shot.reason}` : '',
        note ? `Reviewer's note: ${note}` : '',
        'Attached: baseline.png (as approved), current.png (this run), diff.png (changes in red, the region outlined).',
      ].filter(Boolean).join('\n');
      const bug = await bugs.create(
        caller,
        clientId,
        {
          title: cut(`${where} looks different from its baseline`, 200),
          severity: body.severity,
          url: cut(shot.url, 2000),
          environment: { browser: shot.engine, device: cut(shot.device, 200) },
          steps: [cut(`Open ${shot.url} on ${cellLabel(shot.cell)}`, 2000), cut(`Compare with the approved baseline of the test "${candidate.testName}"`, 2000)],
          expected: `${where} looks as its approved baseline (tolerance ${visualShare(shot.tolerance)} of pixels).`,
          actual,
          source: 'test',
          runTestId: candidate.runTestId,
          publish: body.publish,
        },
        { files },
      );
      const updated = await db.transaction(async (tx) => {
        const row = (await setCandidateBug(tx, candidate.id, bug.id)) ?? rejected;
        await record(tx, caller, 'visual.bug', row, { bugId: bug.id, number: `BUG-${bug.number}` });
        return row;
      });
      const current = (await currentBaselines(db, clientId, [candidate.key])).get(candidate.key);
      return {
        message: `${where} rejected; BUG-${bug.number} opened${body.publish ? '' : ' as a draft'} with its baseline, current and diff images`,
        review: reviewOf(updated, current),
        baselineVersion: null,
        bugId: bug.id,
        bugNumber: bug.number,
      };
    },
  };
}
