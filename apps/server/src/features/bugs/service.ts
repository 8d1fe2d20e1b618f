import {
  type Bug,
  type BugAction,
  type BugAttachment,
  type BugList,
  type BugPrefill,
  type BugStatus,
  type BugSummary,
  bugPath,
  type CreateBugBody,
  opsBugPath,
  type UpdateBugBody,
} from '@fullstop/contracts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { publicUrl } from '../../config/env.ts';
import { audit, type AuditType } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { clientEmails, getClient, operatorEmails, userName } from '../accounts/index.ts';
import type { Principal } from '../auth/index.ts';
import { operatorRunOrigin, type RunOrigin } from '../runs/index.ts';
import { queueRun } from '../runs/index.ts';
import type { RunRow } from '../runs/index.ts';
import { runStatusOf } from '../runs/index.ts';
import { bugKey, storeCopy } from './attachments.ts';
import { allowedActions, BugTransitionError, type BugSide, nextStatus } from './lifecycle.ts';
import { clientRunTest, type EvidenceSource, prefillOf } from './prefill.ts';
import { listBugExports } from '../integrations/index.ts';
import {
  type BugAttachmentRow,
  type BugFilter,
  type BugRow,
  bugsRetestedBy,
  bugThread,
  countByStatus,
  endedRetestRuns,
  findBug,
  insertAttachment,
  insertBug,
  insertComment,
  insertEvent,
  listBugs,
  lockBug,
  updateBug,
} from './repository.ts';

/** The name operators write under: the client sees the team, not the person. */
export const OPERATOR_NAME = 'Fullstop QA';
const NOT_FOUND = 'Bug not found';

/** Who is acting, and from where (for the audit log and the mail). */
export interface Caller {
  side: BugSide;
  principal: Principal;
  address: string;
  log: FastifyBaseLogger;
}

export function callerOf(request: { principal: Principal | null; ip: string; log: FastifyBaseLogger }): Caller {
  const principal = request.principal!;
  return { side: principal.role === 'operator' ? 'operator' : 'client', principal, address: request.ip, log: request.log };
}

const numberOf = (row: Pick<BugRow, 'number'>) => `BUG-${row.number}`;

function summaryOf(row: BugRow): BugSummary {
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    severity: row.severity,
    status: row.status,
    source: row.source,
    testName: row.testName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function attachmentOf(a: BugAttachmentRow): BugAttachment {
  return { id: a.id, name: a.name, kind: a.kind, contentType: a.contentType, size: a.sizeBytes, createdAt: a.createdAt.toISOString() };
}

/** The bugs feature: every rule of the lifecycle, the thread, the retest, the mail and the audit. */
export function bugService(app: FastifyInstance) {
  const db = app.db;

  /** `readOnly`: a viewer of the client's team, who reads bugs and writes in their thread but answers nothing. */
  async function bugOf(row: BugRow, side: BugSide, readOnly = false): Promise<Bug> {
    const [thread, exports] = await Promise.all([bugThread(db, row.id), listBugExports(db, row.id)]);
    return {
      ...summaryOf(row),
      clientId: row.clientId,
      url: row.url,
      environment: row.environment,
      steps: row.steps,
      expected: row.expected,
      actual: row.actual,
      link: row.testName === null ? null : { testName: row.testName, runId: row.runId, runTestId: row.runTestId, ruleId: row.ruleId },
      attachments: thread.attachments.map(attachmentOf),
      comments: thread.comments.map(({ comment, username }) => ({
        id: comment.id,
        author: comment.side === 'operator' ? OPERATOR_NAME : (username ?? 'API key'),
        side: comment.side,
        body: comment.body,
        createdAt: comment.createdAt.toISOString(),
      })),
      events: thread.events.map((e) => ({ from: e.fromStatus, to: e.toStatus, by: e.by, reason: e.reason, createdAt: e.createdAt.toISOString() })),
      exports,
      actions: readOnly ? [] : allowedActions(row.status, side),
    };
  }

  /** The bug when the caller may see it: a client only its own and never a draft; anything else is "not found". */
  async function visible(caller: Caller, id: string): Promise<BugRow> {
    let row = await findBug(db, id);
    if (!row) throw new NotFoundError(NOT_FOUND);
    if (caller.side === 'client' && (row.clientId !== caller.principal.clientId || row.status === 'draft')) throw new NotFoundError(NOT_FOUND);
    // A retest whose run ended where no listener heard it (a separate worker process) is settled when read.
    if (row.status === 'retest' && row.retestRunId) {
      const status = await runStatusOf(db, row.retestRunId);
      if (status === 'passed' || status === 'failed' || status === 'error') {
        await settle(row.retestRunId, status);
        row = (await findBug(db, id)) ?? row;
      }
    }
    return row;
  }

  const byName = async (caller: Caller) =>
    caller.side === 'operator' ? OPERATOR_NAME : ((await userName(db, caller.principal.userId)) ?? 'API key');

  async function record(caller: Caller, type: AuditType, row: Pick<BugRow, 'id' | 'clientId' | 'number'>, details: Record<string, unknown> = {}) {
    if (caller.side !== 'operator') return;
    await audit(db, caller.log, { type, clientId: row.clientId, userId: caller.principal.userId, address: caller.address, details: { bugId: row.id, number: numberOf(row), ...details } });
  }

  /** Mails the other side: an operator's change goes to the client's users, a client's to every operator. */
  async function notify(from: BugSide | 'retest', row: BugRow, what: string, body: string, log: FastifyBaseLogger) {
    if (row.status === 'draft') return;
    const toClient = from !== 'client';
    let recipients = toClient ? await clientEmails(db, row.clientId) : await operatorEmails(db);
    if (!toClient && recipients.length === 0) recipients = [app.env.CONTACT_EMAIL];
    // The title is the client's site's or the operator's words: one line, no control characters, in the subject.
    // eslint-disable-next-line no-control-regex -- stripping control characters is the point
    const title = row.title.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim().slice(0, 120);
    const link = `${publicUrl(app.env)}${toClient ? bugPath(row.id) : opsBugPath(row.id)}`;
    const subject = `${numberOf(row)} ${title}: ${what}`;
    const text = `${numberOf(row)} ${title}\nStatus: ${row.status}, severity: ${row.severity}\n\n${body}\n\nOpen the bug: ${link}\n`;
    for (const to of recipients) {
      try {
        await app.mailer.send({ to, subject, text });
      } catch (err) {
        log.error({ err, bugId: row.id }, 'a bug notification could not be sent');
      }
    }
  }

  async function emit(change: Parameters<typeof app.bugChanges.emit>[0]) {
    await app.bugChanges.emit(change);
  }

  /** Moves a bug on: the status and its event in one transaction, under the bug's lock. */
  async function move(
    id: string,
    decide: (row: BugRow) => { to: BugStatus; action: BugAction | 'retest-result'; set?: Partial<BugRow> },
    event: { by: string; reason?: string | null; comment?: { body: string } },
  ): Promise<{ before: BugRow; after: BugRow }> {
    return db.transaction(async (tx) => {
      const before = await lockBug(tx, id);
      if (!before) throw new NotFoundError(NOT_FOUND);
      const { to, action, set } = decide(before);
      const after = await updateBug(tx, id, { ...set, status: to });
      await insertEvent(tx, { bugId: id, fromStatus: before.status, toStatus: to, action, by: event.by, reason: event.reason ?? null });
      if (event.comment) await insertComment(tx, { bugId: id, userId: null, side: 'operator', body: event.comment.body });
      return { before, after: after! };
    });
  }

  /** A retest's run ended: its bugs are verified (passed) or reopened (failed), with an event and a comment. */
  async function settle(runId: string, runStatus: string) {
    if (runStatus !== 'passed' && runStatus !== 'failed' && runStatus !== 'error') return;
    const to: BugStatus = runStatus === 'passed' ? 'verified' : 'reopened';
    for (const bug of await bugsRetestedBy(db, runId)) {
      const words = runStatus === 'passed' ? 'passed: the bug is verified as fixed' : `${runStatus === 'failed' ? 'failed' : 'could not run'}: the bug is reopened`;
      let moved: { before: BugRow; after: BugRow };
      try {
        moved = await move(
          bug.id,
          (row) => {
            if (row.status !== 'retest' || row.retestRunId !== runId) throw new BugTransitionError('verify', row.status, []);
            return { to, action: 'retest-result' };
          },
          { by: 'retest', comment: { body: `The retest of "${bug.testName ?? bug.title}" (run ${runId}) ${words}.` } },
        );
      } catch (err) {
        if (err instanceof BugTransitionError) continue;
        throw err;
      }
      await emit({ bugId: bug.id, clientId: bug.clientId, kind: 'status', from: 'retest', to });
      await notify('retest', moved.after, to === 'verified' ? 'verified by the retest' : 'reopened by the retest', `The retest (run ${runId}) ${words}.`, app.log);
    }
  }

  return {
    db,
    artifacts: app.artifacts,
    visible,
    bugOf,
    settleRun: (run: RunRow) => settle(run.id, run.status),

    async list(caller: Caller, query: { status?: BugStatus | undefined; severity?: BugFilter['severity']; clientId?: string | undefined }): Promise<BugList> {
      const filter: BugFilter = caller.side === 'operator'
        ? { clientId: query.clientId, severity: query.severity, status: query.status, withDrafts: true }
        : { clientId: caller.principal.clientId!, severity: query.severity, status: query.status, withDrafts: false };
      for (const ended of await endedRetestRuns(db, filter.clientId)) await settle(ended.runId, ended.status);
      const [rows, counts] = await Promise.all([listBugs(db, filter), countByStatus(db, filter)]);
      return {
        bugs: rows.map(({ bug, clientName }) => ({ ...summaryOf(bug), clientId: bug.clientId, ...(caller.side === 'operator' ? { clientName } : {}) })),
        counts,
      };
    },

    async get(caller: Caller, id: string): Promise<Bug> {
      const row = await visible(caller, id);
      await record(caller, 'bug.viewed', row);
      return bugOf(row, caller.side, caller.principal.teamRole === 'viewer');
    },

    async prefill(clientId: string, runTestId: string, ruleId: string | undefined): Promise<BugPrefill> {
      const client = await getClient(db, clientId);
      const rt = await clientRunTest(db, clientId, runTestId);
      return (await prefillOf(app.artifacts, rt, client.website, ruleId)).prefill;
    },

    /** `files`: the evidence to attach in place of what the run test's prefill would (a visual shot's three images). */
    async create(caller: Caller, clientId: string, body: CreateBugBody, options: { files?: EvidenceSource[] } = {}): Promise<Bug> {
      const client = await getClient(db, clientId);
      const rt = body.runTestId ? await clientRunTest(db, clientId, body.runTestId) : null;
      const prefilled = rt ? await prefillOf(app.artifacts, rt, client.website, body.ruleId) : null;
      const evidence = prefilled && options.files ? { ...prefilled, files: options.files } : prefilled;
      const status: BugStatus = body.publish ? 'open' : 'draft';
      const row = await db.transaction(async (tx) => {
        const created = await insertBug(tx, clientId, {
          title: body.title,
          severity: body.severity,
          status,
          // Written from evidence without saying what it is: what the evidence is.
          source: body.source === 'manual' && evidence ? evidence.prefill.source : body.source,
          url: body.url,
          environment: body.environment,
          steps: body.steps,
          expected: body.expected,
          actual: body.actual,
          testName: rt?.testName ?? null,
          runId: rt?.runId ?? null,
          runTestId: rt?.id ?? null,
          ruleId: body.ruleId ?? null,
          createdBy: caller.principal.userId,
        });
        await insertEvent(tx, { bugId: created.id, fromStatus: null, toStatus: status, action: 'create', by: OPERATOR_NAME });
        return created;
      });
      for (const file of evidence?.files ?? []) {
        try {
          const stored = await storeCopy(app.artifacts, row.id, file.name, file.from);
          await insertAttachment(db, { bugId: row.id, name: file.name, kind: file.kind, contentType: file.contentType, sizeBytes: stored.size, path: stored.relPath, uploadedBy: caller.principal.userId });
        } catch (err) {
          caller.log.error({ err, bugId: row.id, file: file.name }, 'a piece of evidence could not be attached');
        }
      }
      await record(caller, 'bug.created', row, { status, runTestId: rt?.id ?? null });
      await emit({ bugId: row.id, clientId, kind: 'created', from: null, to: status });
      await notify('operator', row, 'new bug report', `Our QA team reported a new bug (severity ${row.severity}).`, caller.log);
      return bugOf(row, caller.side, caller.principal.teamRole === 'viewer');
    },

    async update(caller: Caller, id: string, body: UpdateBugBody): Promise<Bug> {
      await visible(caller, id);
      const row = (await updateBug(db, id, body))!;
      await record(caller, 'bug.updated', row, { fields: Object.keys(body) });
      await emit({ bugId: row.id, clientId: row.clientId, kind: 'fields', from: row.status, to: row.status });
      return bugOf(row, caller.side, caller.principal.teamRole === 'viewer');
    },

    async setSeverity(caller: Caller, id: string, severity: BugRow['severity']): Promise<Bug> {
      const current = await visible(caller, id);
      const row = (await updateBug(db, id, { severity }))!;
      await emit({ bugId: row.id, clientId: row.clientId, kind: 'fields', from: row.status, to: row.status });
      if (current.severity !== severity) {
        await notify(caller.side, row, `severity changed to ${severity}`, `${await byName(caller)} changed the severity from ${current.severity} to ${severity}.`, caller.log);
      }
      return bugOf(row, caller.side, caller.principal.teamRole === 'viewer');
    },

    async transition(caller: Caller, id: string, action: BugAction, reason: string | undefined): Promise<Bug> {
      const current = await visible(caller, id);
      nextStatus(current.status, action, caller.side, reason);
      // A retest re-runs the linked test when the client's suite still has it; otherwise operators retest by hand.
      let retestRunId: string | null = null;
      let retestNote = '';
      if (action === 'request-retest' && current.testName) {
        const origin: RunOrigin =
          caller.side === 'operator' ? operatorRunOrigin(caller.principal) : { trigger: 'portal', requestedBy: caller.principal.userId };
        try {
          retestRunId = (await queueRun(app.engine.deps, current.clientId, { testName: current.testName }, origin)).runId;
          retestNote = ` The test "${current.testName}" is running again (run ${retestRunId}).`;
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err;
          retestNote = ' Its test is no longer in the suite: our QA team retests it by hand.';
        }
      } else if (action === 'request-retest') {
        retestNote = ' It has no linked test: our QA team retests it by hand.';
      }
      const by = await byName(caller);
      const { before, after } = await move(
        id,
        (row) => {
          const to = nextStatus(row.status, action, caller.side, reason);
          return { to, action, set: action === 'request-retest' ? { retestRunId } : {} };
        },
        { by, reason: reason?.trim() || null },
      );
      await record(caller, 'bug.transition', after, { action, from: before.status, to: after.status, retestRunId });
      await emit({ bugId: after.id, clientId: after.clientId, kind: 'status', from: before.status, to: after.status });
      const what = action === 'publish' ? 'new bug report' : `marked ${after.status}`;
      const why = reason?.trim() ? `\nReason: ${reason.trim()}` : '';
      await notify(caller.side, after, what, `${by} moved the bug from ${before.status} to ${after.status}.${retestNote}${why}`, caller.log);
      // The run may have ended before its id was stored: settle it now then.
      if (retestRunId) {
        const status = await runStatusOf(db, retestRunId);
        if (status) await settle(retestRunId, status);
      }
      return bugOf((await findBug(db, id))!, caller.side, caller.principal.teamRole === 'viewer');
    },

    async comment(caller: Caller, id: string, body: string): Promise<Bug> {
      const current = await visible(caller, id);
      await db.transaction(async (tx) => {
        await insertComment(tx, { bugId: id, userId: caller.principal.userId, side: caller.side, body });
        await updateBug(tx, id, {});
      });
      await record(caller, 'bug.comment', current);
      await emit({ bugId: id, clientId: current.clientId, kind: 'comment', from: current.status, to: current.status });
      await notify(caller.side, current, 'new comment', `${await byName(caller)} wrote:\n\n${body}`, caller.log);
      return bugOf((await findBug(db, id))!, caller.side, caller.principal.teamRole === 'viewer');
    },

    async attached(caller: Caller, row: BugRow, attachment: BugAttachmentRow): Promise<void> {
      await record(caller, 'bug.attachment', row, { attachmentId: attachment.id, name: attachment.name, size: attachment.sizeBytes });
      await notify(caller.side, row, 'new attachment', `${await byName(caller)} attached ${attachment.name}.`, caller.log);
    },

    /** The attachment's key in the artifact store (inside `bugs/`, or "not found"). */
    async file(caller: Caller, row: BugRow, attachment: BugAttachmentRow): Promise<string> {
      await record(caller, 'bug.viewed', row, { attachmentId: attachment.id });
      if (!attachment.path.startsWith(`${bugKey(row.id)}/`)) throw new NotFoundError('Attachment not found');
      return attachment.path;
    },
  };
}

export type BugService = ReturnType<typeof bugService>;
