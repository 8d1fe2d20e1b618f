import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_FILES } from '../../../packages/engine/src/sandbox/entry-file.ts';
import { TEST_KINDS } from '../../../packages/engine/src/types.ts';
import { buildServer } from '../scripts/build.ts';

/** npm packages only some requests or only runner processes use: none may load with the API server. */
const NOT_AT_START = ['lighthouse', '@axe-core/playwright', '@playwright/test', 'autocannon', 'chrome-launcher', 'undici', '@aws-sdk/client-s3', 'nodemailer', 'diff'];

/** The packages an output and everything it imports statically (its chunks, theirs...) load. */
function staticClosure(metafile: Metafile, entry: string): { outputs: Set<string>; packages: Set<string> } {
  const outputs = new Set([entry]);
  const packages = new Set<string>();
  for (const output of outputs) {
    for (const imp of metafile.outputs[output]?.imports ?? []) {
      if (imp.kind !== 'import-statement') continue;
      if (imp.external) packages.add(imp.path.split('/').slice(0, imp.path.startsWith('@') ? 2 : 1).join('/'));
      else outputs.add(imp.path);
    }
  }
  return { outputs, packages };
}

describe('the server build', () => {
  let outDir: string;
  let metafile: Metafile;
  const rel = (file: string) => path.relative(path.resolve(import.meta.dirname, '..'), path.join(outDir, file));

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-build-'));
    ({ metafile } = await buildServer({ outDir, logLevel: 'silent' }));
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('emits the server, the CLI and every file another process starts by path', () => {
    for (const name of ['main', 'cli', ...Object.keys(ENTRY_FILES)]) expect(existsSync(path.join(outDir, `${name}.js`)), name).toBe(true);
    expect(existsSync(path.join(outDir, 'build.json'))).toBe(true);
  });

  it('leaves the runners and what only some requests need out of what the API server loads at start', () => {
    const { outputs, packages } = staticClosure(metafile, rel('main.js'));
    expect(NOT_AT_START.filter((p) => packages.has(p))).toEqual([]);
    const inputs = [...outputs].flatMap((o) => Object.keys(metafile.outputs[o]?.inputs ?? {}));
    expect(inputs.filter((i) => /packages\/engine\/src\/runners\/[^/]+\/index\.ts$/.test(i))).toEqual([]);
    // ...while the server itself, the database and the web framework are there (the check sees real imports).
    expect(packages).toContain('fastify');
    expect(packages).toContain('@electric-sql/pglite');
  });

  it('puts each kind of test in a chunk of its own, which its runner process loads alone', () => {
    const chunkOf = (kind: string) =>
      Object.entries(metafile.outputs).find(([, o]) => Object.keys(o.inputs).some((i) => i.endsWith(`/runners/${kind}/index.ts`)))?.[0];
    const chunks = TEST_KINDS.map(chunkOf);
    expect(chunks.every(Boolean)).toBe(true);
    expect(new Set(chunks).size).toBe(TEST_KINDS.length);
    // The runner process starts without any kind's code: it imports its kind's chunk when told which.
    expect(chunks.filter((c) => staticClosure(metafile, rel('runner-host.js')).outputs.has(c!))).toEqual([]);
  });
});
