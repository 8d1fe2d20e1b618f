import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Below this size compressing saves less than the encoding's own framing; the server compresses nothing smaller either. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|css|svg|json|txt)$/;

/**
 * Writes `name.gz` (gzip, level 9) and `name.br` (Brotli, quality 11) beside every hashed asset, once at build
 * time, for the server to send as they are (`preCompressed` in plugins/app/spa.ts): the smallest encodings there
 * are, where compressing each answer on the fly would cost CPU per request and settle for faster, weaker levels
 * (decision 0081). Hashed assets never change after the build, so the copies cannot go stale.
 */
export function precompress(): Plugin {
  let assetsDir = '';
  return {
    name: 'fullstop-precompress',
    apply: 'build',
    configResolved(config) {
      assetsDir = path.resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    closeBundle() {
      for (const name of readdirSync(assetsDir)) {
        const file = path.join(assetsDir, name);
        if (!COMPRESSIBLE.test(name) || statSync(file).size < MIN_BYTES) continue;
        const body = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        );
      }
    },
  };
}
