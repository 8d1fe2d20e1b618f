import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { access } from '../../lib/access.ts';
import { NotFoundError } from '../../lib/errors.ts';

/** Where Playwright's trace viewer is served; its service worker's scope is this folder. */
export const TRACE_VIEWER_PREFIX = '/trace/viewer/';

/**
 * The viewer reads a trace given by a relative address through its server's `trace/file?path=`, resolved
 * against the folder above its own (Playwright's own server has the viewer at /trace/ and this at /trace/file).
 */
export const TRACE_VIEWER_FILE_ROUTE = '/trace/trace/file';

/** The viewer playwright-core ships, built: a page, its scripts and styles, and a service worker. */
export function traceViewerDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('playwright-core/package.json')), 'lib', 'vite', 'traceViewer');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** Build output named by its content hash (`index.Bx16ehp1.js`, `codeMirrorModule-eyVcHN77.js`) never changes. */
const HASHED = /[.-][\w-]{8}\.(?:js|css|ttf)$/;

/**
 * The viewer's policy: its own scripts, its service worker, and the snapshots that worker serves in frames,
 * all from our origin; nothing from anywhere else (a snapshot's page cannot reach the site it came from). Inline
 * styles because React sets style attributes. The pages' inline scripts (index.html's check for file:// use) are
 * allowed by their hash only. `frame-src data:`: a step without a snapshot shows a grey data: page, which lives
 * in an opaque origin of its own.
 */
export function traceViewerCsp(inlineScriptHashes: string[]): string {
  const hashes = inlineScriptHashes.map((h) => ` 'sha256-${h}'`).join('');
  return [
    "default-src 'none'",
    `script-src 'self'${hashes}`,
    "worker-src 'self'",
    "connect-src 'self'",
    "frame-src 'self' data:",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'self'",
    "form-action 'none'",
    "object-src 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

interface ViewerFile {
  body: Buffer;
  type: string;
  cache: string;
}

/** Every file of the viewer, read once; a request can only ever name one of these. */
function loadViewer(dir: string): { files: Map<string, ViewerFile>; inlineHashes: string[] } {
  const files = new Map<string, ViewerFile>();
  const inlineHashes: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, abs).split(path.sep).join('/');
    const type = TYPES[path.extname(rel).toLowerCase()];
    if (!type) continue;
    const body = readFileSync(abs);
    if (rel.endsWith('.html')) {
      for (const m of body.toString('utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)) {
        inlineHashes.push(createHash('sha256').update(m[1] ?? '').digest('base64'));
      }
    }
    files.set(rel, { body, type, cache: HASHED.test(rel) ? 'public, max-age=31536000, immutable' : 'no-cache' });
  }
  return { files, inlineHashes };
}

/**
 * Playwright's trace viewer at /trace/viewer/, so a client steps through a failed test in the browser with
 * nothing to install. The files are public (the viewer holds no data); a trace is only ever read through a
 * signed evidence link. Each answer carries the viewer's own policy in place of the portal's.
 */
export const traceViewer: FastifyPluginAsync<{ dir?: string }> = async (app, opts) => {
  const dir = opts.dir ?? traceViewerDir();
  if (!existsSync(path.join(dir, 'index.html'))) {
    app.log.warn({ dir }, 'Playwright’s trace viewer was not found: traces can be downloaded but not viewed');
    return;
  }
  const { files, inlineHashes } = loadViewer(dir);
  const csp = traceViewerCsp([...new Set(inlineHashes)]);

  app.get(`${TRACE_VIEWER_PREFIX}*`, { config: { access: access.anyone }, schema: { hide: true } }, async (request, reply) => {
    const rel = (request.params as { '*': string })['*'] || 'index.html';
    const file = files.get(rel);
    if (!file) throw new NotFoundError(`The trace viewer has no file ${rel}`);
    return reply
      .header('content-type', file.type)
      .header('cache-control', file.cache)
      .header('content-security-policy', csp)
      .header('x-frame-options', 'SAMEORIGIN')
      .header('referrer-policy', 'no-referrer')
      .send(file.body);
  });
};
