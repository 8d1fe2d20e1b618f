import path from 'node:path';
import type { HealingDecisionResponse, HealingProposal, HealingProposalStatus, RunHealsResponse } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { audit } from '../../lib/audit.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { attemptFolder } from '../../lib/run-paths.ts';
import { operatorName } from '../accounts/index.ts';
import type { BugCaller } from '../bugs/index.ts';
import { evidenceFileUrl } from '../evidence/index.ts';
import { shortId } from './engine-hooks.ts';
import { healedCasesOf } from './heals-of.ts';
import { acceptProposal, browserTestsOfRun, proposalOf, proposalsOf, type ProposalWithVersions, rejectProposal } from './repository.ts';

const NOT_FOUND = 'Healing proposal not found';

/** The console's healing proposals (accept, reject) and the client's healed cases of a run. */
export function healingService(app: FastifyInstance) {
  const db = app.db;
  const nameOf = (caller: BugCaller) => operatorName(db, caller.principal.userId);

  /** A proposal as the console shows it: each heal's screenshot a short-lived evidence link of its run test. */
  function viewOf(p: ProposalWithVersions): HealingProposal {
    return {
      id: p.id,
      clientId: p.clientId,
      runId: p.runId,
      runTestId: p.runTestId,
      fromVersion: p.fromVersion,
      proposedVersion: p.proposedVersion,
      status: p.status,
      heals: p.heals.map(({ screenshot, ...h }) => ({
        ...h,
        screenshotUrl: screenshot
          ? evidenceFileUrl(app.keys, { clientId: p.clientId, runId: p.runId, runTestId: h.runTestId, path: path.posix.join(attemptFolder(h.attempt), screenshot), kind: 'screenshot' })
          : null,
      })),
      createdAt: p.createdAt.toISOString(),
      decidedBy: p.decidedByName,
      decidedAt: p.decidedAt?.toISOString() ?? null,
      note: p.note,
    };
  }

  async function waiting(clientId: string, id: string): Promise<ProposalWithVersions> {
    const p = await proposalOf(db, clientId, id);
    if (!p) throw new NotFoundError(NOT_FOUND);
    if (p.status !== 'proposed') throw new ConflictError(`This proposal was ${p.status} already${p.decidedByName ? ` by ${p.decidedByName}` : ''}`);
    return p;
  }

  async function record(tx: Db, caller: BugCaller, type: `${string}.${string}`, p: ProposalWithVersions, details: Record<string, unknown>) {
    await audit(tx, caller.log, { type, clientId: p.clientId, userId: caller.principal.userId, address: caller.address, details }, { required: true });
  }

  const healsDetail = (p: ProposalWithVersions) => p.heals.map((h) => ({ file: h.site.file, line: h.site.line, oldLocator: h.oldLocator, newLocator: h.newLocator, patched: h.patched }));

  return {
    async list(clientId: string, status?: HealingProposalStatus) {
      return { proposals: (await proposalsOf(db, clientId, status)).map(viewOf) };
    },

    /** Makes the proposed version the client's current one (the Suites page's "Make current", audited as it is). */
    async accept(caller: BugCaller, clientId: string, id: string): Promise<HealingDecisionResponse> {
      const p = await waiting(clientId, id);
      if (p.proposedVersion === null) throw new ConflictError('No heal of this proposal could be written into a spec, so there is no version to make current: reject it, and change the spec by hand');
      const by = await nameOf(caller);
      const accepted = await acceptProposal(db, p, { userId: caller.principal.userId, by, at: new Date(), note: null }, async (tx, previous) => {
        await record(tx, caller, 'suite.current', p, { version: p.proposedVersion, previous, via: 'healing', proposalId: p.id });
        await record(tx, caller, 'healing.accepted', p, { proposalId: p.id, runId: p.runId, fromVersion: p.fromVersion, version: p.proposedVersion, previous, heals: healsDetail(p) });
      });
      if (!accepted) throw new ConflictError('This proposal was decided meanwhile');
      app.cache.invalidate(clientId, 'tests');
      const after = (await proposalOf(db, clientId, id))!;
      return { message: `Suite version ${p.proposedVersion} is now current: the healed locators of run ${shortId(p.runId)} run from now on`, proposal: viewOf(after) };
    },

    /** Keeps the version it ran; the same heals (call site, locators, page state) are not proposed again. */
    async reject(caller: BugCaller, clientId: string, id: string, note: string): Promise<HealingDecisionResponse> {
      const p = await waiting(clientId, id);
      const by = await nameOf(caller);
      const rejected = await rejectProposal(db, p.id, { userId: caller.principal.userId, by, at: new Date(), note }, (tx) =>
        record(tx, caller, 'healing.rejected', p, { proposalId: p.id, runId: p.runId, fromVersion: p.fromVersion, version: p.proposedVersion, note, heals: healsDetail(p) }),
      );
      if (!rejected) throw new ConflictError('This proposal was decided meanwhile');
      const after = (await proposalOf(db, clientId, id))!;
      const version = p.proposedVersion === null ? '' : ` Version ${p.proposedVersion} stays as it is, not current.`;
      return { message: `Rejected: these heals are not proposed again while the page stays as it is.${version}`, proposal: viewOf(after) };
    },

    /** The client's healed cases of one run (the run detail's "Healed: …"). */
    runHeals: (clientId: string, runId: string) => runHealsOf(db, clientId, runId),
  };
}

/** The client's healed cases of one run: per browser test, each case whose locators were healed (404 for another's run). */
export async function runHealsOf(db: Db, clientId: string, runId: string): Promise<RunHealsResponse> {
  const tests = await browserTestsOfRun(db, clientId, runId);
  if (!tests) throw new NotFoundError('Run not found');
  return {
    tests: tests.map((t) => ({ runTestId: t.id, testName: t.testName, cases: healedCasesOf(t.summary) })).filter((t) => t.cases.length > 0),
  };
}
