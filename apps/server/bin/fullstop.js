#!/usr/bin/env node
// The operator CLI, compiled: apps/server/dist/cli.js (decision 0067). A checkout whose bundle is missing or older
// than its source builds it first, in about a second, so `npm run fullstop` works on a fresh clone and after any
// edit. Where the build tool is not installed (a production image keeps only runtime dependencies), the bundle
// that is there runs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { distIsStale } from '../scripts/dist-state.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

if (distIsStale()) {
  try {
    const { buildServer } = await import('../scripts/build.ts');
    await buildServer({ logLevel: 'silent' });
  } catch (err) {
    if (!existsSync(cli)) {
      console.error(`fullstop: the CLI is not built and cannot be built here (${err.message}); run npm run build`);
      process.exit(1);
    }
    console.error(`fullstop: running the existing build, older than the source (cannot rebuild: ${err.message})`);
  }
}
await import(cli);
