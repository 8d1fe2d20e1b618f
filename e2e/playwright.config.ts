import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = path.join(here, '.output', `data-${port}-${process.pid}`);
export const baseURL = `http://127.0.0.1:${port}`;
// One operator token for the server under test and the tests (workers inherit the main process's env).
process.env.E2E_OPERATOR_TOKEN ??= randomBytes(24).toString('hex');

/**
 * End-to-end tests of the product in Debian's Chromium against the real server, started here on a fresh
 * embedded database. E2E_PORT lets two runs share a machine.
 */
export default defineConfig({
  testDir: path.join(here, 'tests'),
  outputDir: path.join(here, '.output', `results-${port}`),
  fullyParallel: true,
  forbidOnly: true,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    command: 'node --import tsx apps/server/src/main.ts',
    cwd: root,
    url: `${baseURL}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN,
      ...(process.env.E2E_SERVER_ENV ? JSON.parse(process.env.E2E_SERVER_ENV) : {}),
    },
  },
});
