import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH, playwrightChromiumArgs } from '@fullstop/engine/chromium';
import { defineConfig, devices } from '@playwright/test';
import { SHORT_TOKEN_TTL } from './support/servers.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = path.join(here, '.output', `data-${port}-${process.pid}`);
export const baseURL = `http://127.0.0.1:${port}`;
const shortTokenURL = `http://127.0.0.1:${port + 1}`;
/** The compiled server as `npm start` runs it (the root package.json's `serve`); `npm run test:e2e` builds it first. */
const serveCommand = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { serve: string } }).scripts.serve;
// Tests read the main server's outbox (password-reset mails) here.
const mainDataDir = (process.env.E2E_DATA_DIR ??= dataDir);
// One operator token for the servers under test and the tests (workers inherit the main process's env).
process.env.E2E_OPERATOR_TOKEN ??= randomBytes(24).toString('hex');

/**
 * End-to-end tests of the product in Debian's Chromium against the real server, started here on a fresh
 * embedded database (and a second one with short-lived access tokens on the next port). E2E_PORT lets two
 * runs share a machine.
 */
/** The specs whose runs the engine works through (see the 'engine-runs' project). */
const ENGINE_RUNS = /(run-all|visual-review|mobile-ui-demo)\.spec\.ts/;

export default defineConfig({
  testDir: path.join(here, 'tests'),
  outputDir: path.join(here, '.output', `results-${port}`),
  fullyParallel: true,
  forbidOnly: true,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH,
      args: playwrightChromiumArgs(CHROMIUM_FLAGS),
    },
  },
  projects: [
    {
      // The specs that wait for the engine to run whole suites (the demo's one Run All that the dashboard, insights,
      // reports and History then read; visual and mobile UI runs) take their turns, beside the rest: side by side,
      // their runs queued behind each other on the one server's engine and each outwaited its budget, a verdict of the
      // machine's load rather than of the product.
      // First in the list, so that its one worker starts on them while the other takes the rest.
      name: 'engine-runs',
      testMatch: ENGINE_RUNS,
      workers: 1,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'desktop',
      testIgnore: [/session-expiry\.spec\.ts/, ENGINE_RUNS],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    {
      // A second server whose access tokens live SHORT_TOKEN_TTL seconds: real expiry, renewed silently.
      name: 'short-token-life',
      testMatch: /session-expiry\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, baseURL: shortTokenURL },
    },
  ],
  webServer: [
    server(port, mainDataDir, {}),
    server(port + 1, `${dataDir}-short-token`, { ACCESS_TOKEN_TTL: String(SHORT_TOKEN_TTL), FULLSTOP_DEMO: '0' }),
  ],
});

function server(serverPort: number, serverDataDir: string, extraEnv: Record<string, string>) {
  const url = `http://127.0.0.1:${serverPort}`;
  return {
    command: serveCommand,
    cwd: root,
    url: `${url}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(serverPort),
      HOST: '127.0.0.1',
      DATA_DIR: serverDataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN ?? '',
      // Every browser of these tests, and the demo's own security scan (sqlmap on the login and the password reset,
      // decision 0095), come from 127.0.0.1: a per-address limit would lock the tests out after the scan. The
      // per-account limits stay.
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
      FORGOT_PASSWORD_MAX_PER_ADDRESS: '100000',
      ...extraEnv,
      ...(process.env.E2E_SERVER_ENV ? (JSON.parse(process.env.E2E_SERVER_ENV) as Record<string, string>) : {}),
    },
  };
}
