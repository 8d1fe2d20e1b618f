import { availableParallelism } from 'node:os';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Files the PostgreSQL run leaves out: they touch no database (pure functions, files on disk, the build) or test
 * the HTTP and CLI surface, which is the same whatever the database. Everything else runs on both.
 */
const NOT_ABOUT_THE_DATABASE = [
  'src/config/**',
  'src/lib/**',
  'src/features/engine/config.test.ts',
  'src/features/runs/mappers.test.ts',
  'test/build.test.ts',
  'test/deploy-files.test.ts',
  'test/structure.test.ts',
  'test/input-rules.test.ts',
  'test/bad-inputs.test.ts',
  'test/request-limits.test.ts',
  'test/spa-not-found.test.ts',
  'test/trust-proxy.test.ts',
  'test/authorization-table.test.ts',
  'test/cli.test.ts',
  'test/cli-secrets.test.ts',
  'test/schedules-cli.test.ts',
  'test/ci-kit.test.ts',
  'test/ci-kit-badge.test.ts',
  // Five minutes of crawls and 39-test runs of real browsers; what it stores (a suite version, runs) other files test on
  // PostgreSQL too.
  'test/engine/starter-suite.test.ts',
  // A re-crawl's patch of a current suite: two surveys and a trial run in real browsers; what it stores other files test on PostgreSQL too.
  'test/engine/starter-update.test.ts',
  // A real server process on an embedded database of its own, whichever database the project is given.
  'test/engine/crash-recovery.test.ts',
  // What runner processes and device clouds do; the runs and reports they store other files test on PostgreSQL too.
  'test/engine/runner-sandbox.test.ts',
  'test/engine/mobile-device-farm.test.ts',
  'test/engine/mobile-clouds.test.ts',
  // A real browser's survey of a hostile page, and the runner users' pool: what they store other files test on PostgreSQL.
  'test/engine/site-survey-hostile.test.ts',
  // Surveys and runs of a site whose look changes between visits, in real browsers, no database at all.
  'test/engine/starter-visual.test.ts',
  'src/features/engine/runner-pool.test.ts',
  // Real Chromium through the server, in one process: healed locators and a deploy's re-crawl, visual review, cloud
  // cells (page checks and spec files) and the mobile UI kind. PGlite is PostgreSQL itself (compiled to WebAssembly):
  // their SQL runs the same there; what a server adds is other processes, which these files do not have. About 90 s
  // of a CI worker each run.
  'test/engine/healing-proposals.test.ts',
  'test/engine/visual-review.test.ts',
  'test/engine/browser-cloud-cells.test.ts',
  'test/engine/browser-cloud-specs.test.ts',
  'test/engine/mobile-ui-serving.test.ts',
];

function serverProject(name: string, databaseUrl: string) {
  return {
    test: {
      name,
      root: './apps/server',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      ...(databaseUrl ? { exclude: NOT_ABOUT_THE_DATABASE } : {}),
      // Each file in a fresh worker (isolate, the default). Sharing one worker's loaded modules saved about 2 s of
      // CPU a file, but V8 in Node 24 aborted the worker ("Check failed: jit_page_->allocations_.erase(addr) == 1", in
      // UnregisterWasmAllocation) once enough embedded databases (WebAssembly) had come and gone in one process.
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // An empty TEST_DATABASE_URL means the embedded database (PGlite).
      env: { TEST_DATABASE_URL: databaseUrl },
    },
  };
}

/** Unit, component and API tests, one project per workspace. End-to-end tests are Playwright's (e2e/). */
export default defineConfig({
  test: {
    // Two files at a time on 2 cores (Vitest's own default is one fewer than the cores): one file at a time left the
    // machine a fifth idle (files that wait on a browser, a schedule's tick, a crawl), and CI took 37 minutes of it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'engine',
          root: './packages/engine',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      serverProject('server', ''),
      // The same API suite again on a real PostgreSQL, when one is given.
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', process.env.TEST_DATABASE_URL)] : []),
      {
        resolve: {
          alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) },
        },
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // A form test types like a person (userEvent), which a loaded machine makes slow, not wrong.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
