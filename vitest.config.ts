import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';

function serverProject(name: string, databaseUrl: string) {
  return {
    test: {
      name,
      root: './apps/server',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      environment: 'node',
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
