/**
 * Compiles the server to JavaScript (apps/server/dist): the API server (main.js), the CLI (cli.js) and the engine's
 * files other processes start by path (entry-file.ts), with our workspace packages bundled in and npm packages
 * left to node_modules. Code splitting keeps what only some requests or some runner processes need in chunks of
 * its own, loaded on first use: each test kind's runner is one (a runner process loads its kind only). Run with
 * plain Node (`node apps/server/scripts/build.ts`, or `npm run build`); bin/fullstop.js runs it when the bundle
 * is older than the source. Decision 0067.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin, version as esbuildVersion } from 'esbuild';
import { ENTRY_FILES, SOURCE_COPIES } from '../../../packages/engine/src/sandbox/entry-file.ts';
import { BUILD_STAMP_FILE, DIST_DIR, ROOT_DIR, SERVER_DIR } from './dist-state.ts';

/** An output of an earlier build that this one did not write is deleted once this old: a server started from
 * that build may still load its lazy chunks for a while, and then it is garbage. */
const STALE_OUTPUT_MS = 24 * 3600 * 1000;
/** A temporary file older than this was left by a build that died. */
const TMP_FILE_MS = 60_000;

/** Our workspace packages, bundled from their source through their package.json `exports`. */
const WORKSPACE_PACKAGES = ['contracts', 'engine'];

function workspaceExports(): Map<string, string> {
  const map = new Map<string, string>();
  for (const dir of WORKSPACE_PACKAGES) {
    const root = path.join(ROOT_DIR, 'packages', dir);
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
    for (const [sub, file] of Object.entries(pkg.exports)) map.set(sub === '.' ? pkg.name : `${pkg.name}${sub.slice(1)}`, path.join(root, file));
  }
  return map;
}

/** `packages: 'external'` would leave @fullstop/* to node_modules (they are symlinks there): bundle them instead. */
function bundleWorkspacePackages(): Plugin {
  const exports = workspaceExports();
  return {
    name: 'fullstop-workspace',
    setup(b) {
      b.onResolve({ filter: /^@fullstop\// }, (args) => {
        const file = exports.get(args.path);
        return file ? { path: file, sideEffects: !file.includes('/packages/engine/') ? undefined : false } : { errors: [{ text: `${args.path} is not exported by a workspace package` }] };
      });
    },
  };
}

/** Writes each file under a temporary name, then renames it: a process starting meanwhile never reads half a file. */
function writeAtomically(file: string, contents: Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, file);
}

export interface BuildResult {
  files: number;
  bytes: number;
  ms: number;
  /** esbuild's account of every input and output, for whoever wants to see what a chunk holds. */
  metafile: Metafile;
}

export interface BuildOptions {
  /** `silent` for a build nobody asked for (bin/fullstop.js): its errors still throw, with their messages. */
  logLevel?: 'warning' | 'silent';
  /** apps/server/dist unless given (tests build elsewhere). */
  outDir?: string;
}

export async function buildServer(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const outDir = options.outDir ?? DIST_DIR;
  const stamp = path.join(outDir, BUILD_STAMP_FILE);
  const engineSrc = path.join(ROOT_DIR, 'packages/engine/src');
  const result = await build({
    absWorkingDir: SERVER_DIR,
    entryPoints: {
      main: path.join(SERVER_DIR, 'src/main.ts'),
      cli: path.join(SERVER_DIR, 'src/cli/main.ts'),
      ...Object.fromEntries(Object.entries(ENTRY_FILES).map(([name, file]) => [name, path.join(engineSrc, `${file}.ts`)])),
    },
    outdir: outDir,
    // Flat: entry-file.ts and server-dir.ts find the entries and apps/server from any chunk by one rule.
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    packages: 'external',
    plugins: [bundleWorkspacePackages()],
    // Fastify names a plugin after its function, and errors print their class's name: keep both as written.
    keepNames: true,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: options.logLevel ?? 'warning',
    write: false,
    metafile: true,
  });

  // Chunks first, entries last: a process that reads a new entry finds every chunk it imports already there.
  const entries = new Set([...Object.keys(ENTRY_FILES), 'main', 'cli'].map((name) => path.join(outDir, `${name}.js`)));
  const outputs = [...result.outputFiles].sort((a, b) => Number(entries.has(a.path)) - Number(entries.has(b.path)));
  let bytes = 0;
  for (const out of outputs) {
    writeAtomically(out.path, out.contents);
    bytes += out.contents.byteLength;
  }
  // Engine sources a generated suite carries a copy of (entry-file.ts SOURCE_COPIES), as they are.
  const copies = Object.entries(SOURCE_COPIES).map(([name, file]) => {
    const to = path.join(outDir, `${name}.source.ts`);
    writeAtomically(to, readFileSync(path.join(engineSrc, `${file}.ts`)));
    return to;
  });
  writeAtomically(stamp, Buffer.from(`${JSON.stringify({ esbuild: esbuildVersion, files: outputs.length }, null, 2)}\n`));

  const written = new Set([...outputs.map((o) => o.path), ...copies, stamp]);
  for (const name of readdirSync(outDir)) {
    const file = path.join(outDir, name);
    if (written.has(file)) continue;
    // Another build running at the same time may have renamed or removed it since the listing.
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) continue;
    const age = Date.now() - stat.mtimeMs;
    // Another build's temporary file is its own business for the few seconds it lives.
    if (age > (name.endsWith('.tmp') ? TMP_FILE_MS : STALE_OUTPUT_MS)) rmSync(file, { force: true, recursive: true });
  }
  return { files: outputs.length, bytes, ms: Math.round(performance.now() - started), metafile: result.metafile };
}

if (import.meta.main) {
  const { files, bytes, ms } = await buildServer();
  console.log(`server built: ${files} files, ${(bytes / 1048576).toFixed(1)} MB in apps/server/dist (${ms} ms)`);
}
