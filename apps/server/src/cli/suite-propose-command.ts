import type { Command } from 'commander';
import { SUITE_PROPOSAL_DEFAULT_PAGES, SUITE_PROPOSAL_MAX_PAGES, type SuiteProposal } from '@fullstop/contracts';
import { clientFor, OperatorApiError } from './operator-client.ts';

/** How often the command asks how the proposal goes. */
export const PROPOSAL_POLL_MS = 2_000;
/** The command gives up waiting (the proposal goes on in the server) after this long. */
const WAIT_LIMIT_MS = 40 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `fullstop suite propose`: a starter suite from a crawl of the client's website (docs/starter-suite.md). */
export function registerSuiteProposeCommand(suite: Command): void {
  suite
    .command('propose')
    .description('crawl the client’s website and propose a starter suite as a new version (not current unless --make-current)')
    .requiredOption('--client <id>', 'client id')
    .option('--pages <n>', `the most pages the crawl takes (1 to ${SUITE_PROPOSAL_MAX_PAGES}, default ${SUITE_PROPOSAL_DEFAULT_PAGES})`)
    .option('--make-current', 'make the proposed version current at once (for scripts; otherwise review it in the console)')
    .option('--json', 'print the version id and the tests as JSON')
    .action(async (opts: { client: string; pages?: string; makeCurrent?: boolean; json?: boolean }, cmd: Command) => {
      const pages = opts.pages === undefined ? undefined : Number(opts.pages);
      if (pages !== undefined && !(Number.isInteger(pages) && pages >= 1 && pages <= SUITE_PROPOSAL_MAX_PAGES)) {
        throw new OperatorApiError(`--pages must be a whole number from 1 to ${SUITE_PROPOSAL_MAX_PAGES}`, 0, null);
      }
      const api = clientFor(cmd);
      const base = `/operator/clients/${encodeURIComponent(opts.client)}/suites`;
      let state = await api.post<SuiteProposal>(`${base}/propose`, { ...(pages ? { maxPages: pages } : {}), makeCurrent: Boolean(opts.makeCurrent) });
      const until = Date.now() + WAIT_LIMIT_MS;
      let said = '';
      while (state.status === 'crawling' || state.status === 'writing') {
        if (!opts.json && state.message !== said) process.stderr.write(`${state.message}\n`);
        said = state.message;
        if (Date.now() > until) throw new OperatorApiError(`still ${state.status} after ${WAIT_LIMIT_MS / 60_000} minutes; ask again with GET ${base}/proposals/${state.id}`, 0, null);
        await sleep(PROPOSAL_POLL_MS);
        state = await api.get<SuiteProposal>(`${base}/proposals/${state.id}`);
      }
      if (state.status === 'failed') throw new OperatorApiError(state.message, 0, state);
      if (opts.json) {
        const { id, version, current, tests, leftOut, notes, loggedIn, patch } = state;
        console.log(JSON.stringify({ proposalId: id, version, current, loggedIn, tests, leftOut, notes, patch }, null, 2));
        return;
      }
      console.log(state.message);
      if (state.patch) {
        // A re-crawl: what it adds to the current version and removes from it, not the whole suite again.
        for (const a of state.patch.added) console.log(`  + ${a.name} (${a.kind}, ${a.page})`);
        for (const r of state.patch.removed) console.log(`  - ${r.name}: ${r.evidence}`);
        for (const p of state.leftOut) console.log(`  left out ${p.path}: ${p.reason}`);
        for (const note of state.notes) console.log(`  note: ${note}`);
        if (state.version !== null && !state.current) {
          console.log(`Review the patch in the console (Suites, diff version ${state.patch.base} to ${state.version}), trial-run it, then make version ${state.version} current.`);
        }
        return;
      }
      const groups = new Map<string, string[]>();
      for (const t of state.tests) groups.set(t.group, [...(groups.get(t.group) ?? []), t.name]);
      for (const [group, names] of groups) console.log(`  ${group}: ${names.join(', ')}`);
      for (const p of state.leftOut) console.log(`  left out ${p.path}: ${p.reason}`);
      for (const note of state.notes) console.log(`  note: ${note}`);
      if (!state.current) console.log(`Review it in the console (Suites, diff against the current version), trial-run it, then make version ${state.version} current.`);
    });
}
