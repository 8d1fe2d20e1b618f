/**
 * The healing hook (decision 0101), imported by the generated Playwright config in every Playwright process. Only a
 * test worker of an attempt that asked for it (the setup file named by FULLSTOP_HEALING) loads the rest
 * (install.ts): the runner's main process loads the config too, acts on no page, and pays nothing.
 *
 * An entry file of the server's bundle (sandbox/entry-file.ts): it loads in the Playwright process with nothing of the
 * engine around it, as the runner user.
 *
 * Run from source (tests, `npm run dev`), its graph reaches the contracts only through `@fullstop/contracts/healing-limits`
 * (types aside), and a client's spec through `@fullstop/contracts/payments` (payWithCard): Playwright's compilation
 * cache keys a file by its name alone, so a file the spec's CommonJS graph compiled in the runner's process reached
 * the worker's ESM import as CommonJS, and linking failed ("does not provide an export named …").
 */
import { hookFiles } from './own-files.ts';
import { leaveToNode } from './playwright-internals.ts';
import { HEALING_SETUP_ENV } from './setup-env.ts';

const setupFile = process.env[HEALING_SETUP_ENV];
if (setupFile && process.env.TEST_WORKER_INDEX !== undefined) {
  // Before the import: else Playwright compiles the hook's graph with Babel in this worker (own-files.ts).
  await leaveToNode(hookFiles()).catch(() => undefined);
  const { install } = await import('./install.ts');
  await install(setupFile);
}
