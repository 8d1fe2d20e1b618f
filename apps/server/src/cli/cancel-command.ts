import { type Command, Option } from 'commander';
import type { RunCancelResponse } from '@fullstop/contracts';
import { clientFor, defaultServer } from './operator-client.ts';

interface CancelOptions {
  client?: string;
  apiKey?: string;
  test?: string;
}

/** With a client's API key: POST the cancel, answer the server's message or throw its refusal. */
async function cancelWithKey(server: string, apiKey: string, urlPath: string): Promise<RunCancelResponse> {
  let res: Response;
  try {
    res = await fetch(new URL(urlPath, server), { method: 'POST', headers: { 'x-api-key': apiKey } });
  } catch (err) {
    throw new Error(`Cannot reach the Fullstop server at ${server} (${String((err as Error).cause ?? (err as Error).message)}).`);
  }
  const body = (await res.json().catch(() => ({}))) as RunCancelResponse & { message?: string };
  if (!res.ok) throw new Error(`${body.message ?? res.statusText} (${res.status})`);
  return body;
}

/**
 * `fullstop cancel <runId>`: cancels a run (or one test of it, --test <runTestId>) as an operator (--client) or
 * with a client's API key. Queued tests never start; running ones are stopped. Exit 1 when refused (already ended,
 * not found).
 */
export function registerCancelCommand(program: Command): void {
  program
    .command('cancel <runId>')
    .description('cancel a run (or one test of it): queued tests never start, running ones are stopped')
    .option('--client <id>', 'client id (with the operator token)')
    .addOption(new Option('--api-key <key>', "a client's API key instead of --client").env('FULLSTOP_API_KEY'))
    .option('--test <runTestId>', 'only this test of the run (its runTestId, from GET /test/runs/{runId})')
    .action(async (runId: string, opts: CancelOptions, cmd: Command) => {
      const part = `runs/${encodeURIComponent(runId)}${opts.test ? `/tests/${encodeURIComponent(opts.test)}` : ''}/cancel`;
      try {
        let res: RunCancelResponse;
        if (opts.client) res = await clientFor(cmd).post<RunCancelResponse>(`/operator/clients/${encodeURIComponent(opts.client)}/${part}`);
        else if (opts.apiKey) res = await cancelWithKey(cmd.optsWithGlobals<{ server?: string }>().server ?? defaultServer(), opts.apiKey, `/test/${part}`);
        else throw new Error('say which client: --client <id> (operator) or --api-key <key> / FULLSTOP_API_KEY');
        console.log(res.message);
      } catch (err) {
        if (!(err instanceof Error)) throw err;
        console.error(`fullstop: ${err.message}`);
        process.exitCode = 1;
      }
    });
}
