import type { RunCancelResponse } from '@fullstop/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { audit } from '../../lib/audit.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { userName } from '../accounts/index.ts';
import type { Principal } from '../auth/index.ts';
import type { EngineDeps } from '../engine/index.ts';
import { cancelWaitingJobs } from '../queue/index.ts';
import { finishRunIfDone } from './finish.ts';
import { isTerminal, testEventOf } from './mappers.ts';
import { queueMoved } from './queue-moves.ts';
import { cancelRunTests, findClientRun, findClientRunTest } from './run-repository.ts';

export interface CancelCaller {
  principal: Principal | null;
  address: string | null;
  log: FastifyBaseLogger;
}

/** The caller of a cancel route, as the audit records it. */
export function cancelCaller(request: { principal?: Principal | null; ip: string; log: FastifyBaseLogger }): CancelCaller {
  return { principal: request.principal ?? null, address: request.ip, log: request.log };
}

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Who cancelled, as the test's error says it: a person by name, the client's API key, or the QA team. */
async function cancelledBy(deps: EngineDeps, principal: Principal | null): Promise<string> {
  const name = await userName(deps.db, principal?.userId ?? null);
  if (principal?.role === 'operator') return name ? `Cancelled by ${name} (Fullstop QA)` : 'Cancelled by Fullstop QA';
  if (name) return `Cancelled by ${name}`;
  return principal?.via === 'api-key' ? 'Cancelled with the API key' : 'Cancelled';
}

/**
 * Cancels a client's run (every test still queued or running) or one test of it. Queued tests never start (their
 * jobs are cancelled in the same transaction); a running test ends "cancelled" now and its worker, in whichever
 * process, stops the attempt whole within seconds (its log and files are kept). The run ends when nothing of it is
 * left going. 404 when the run or test is not the client's; 409 when it already ended.
 */
export async function cancelRun(deps: EngineDeps, clientId: string, runId: string, runTestId: string | null, caller: CancelCaller): Promise<RunCancelResponse> {
  const run = await findClientRun(deps.db, clientId, runId);
  if (!run) throw new NotFoundError('Run not found');
  const one = runTestId ? await findClientRunTest(deps.db, clientId, runId, runTestId) : null;
  if (runTestId && !one) throw new NotFoundError('Test not found in this run');
  if (one && isTerminal(one.status)) throw new ConflictError(`The test “${one.testName}” already ended (${one.status}): there is nothing to cancel`);
  if (!one && isTerminal(run.status)) throw new ConflictError(`This run already ended (${run.status}): there is nothing to cancel`);

  const error = await cancelledBy(deps, caller.principal);
  const cancelled = await deps.db.transaction(async (tx) => {
    const rows = await cancelRunTests(tx, runId, runTestId, error);
    // Only jobs no worker has taken: a running test's job is completed by its worker once the attempt stopped.
    await cancelWaitingJobs(tx, rows.flatMap((r) => (r.jobId ? [r.jobId] : [])));
    return rows;
  });
  // Ended on its own between the read and the update.
  if (cancelled.length === 0) throw new ConflictError(one ? `The test “${one.testName}” already ended: there is nothing to cancel` : 'This run already ended: there is nothing to cancel');

  for (const rt of cancelled) deps.bus.emit(clientId, { type: 'test', data: testEventOf(rt) });
  await finishRunIfDone(deps, runId);
  queueMoved(deps);
  deps.onResultsChanged(clientId);

  const wasRunning = cancelled.filter((r) => r.startedAt !== null).length;
  const wasQueued = cancelled.length - wasRunning;
  await audit(deps.db, caller.log, {
    type: one ? 'run-test.cancelled' : 'run.cancelled',
    clientId,
    userId: caller.principal?.userId ?? null,
    address: caller.address,
    details: { runId, ...(one ? { runTestId: one.id } : {}), tests: cancelled.map((r) => r.testName), queued: wasQueued, running: wasRunning },
  });
  const parts = [wasQueued ? `${counted(wasQueued, 'queued test')} will not start` : null, wasRunning ? `${counted(wasRunning, 'running test')} ${wasRunning === 1 ? 'is' : 'are'} being stopped` : null].filter(Boolean);
  const what = one ? `Test ${one.testName} cancelled` : 'Run cancelled';
  return { message: `${what}: ${parts.join(', ')}`, runId, cancelled: cancelled.length };
}
