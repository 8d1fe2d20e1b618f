import { defineConfig } from 'vitest/config';

/**
 * The chaos suite (`npm run test:chaos`): the server and the engine under what hostile sites, browsers, files
 * and clients do. Files run one at a time: each one loads the machine on purpose and measures the server.
 */
export default defineConfig({
  test: {
    name: 'chaos',
    root: '.',
    include: ['apps/server/test/chaos/**/*.chaos.ts', 'packages/engine/test/chaos/**/*.chaos.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
