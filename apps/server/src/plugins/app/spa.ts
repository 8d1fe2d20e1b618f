import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { spaPaths } from '@fullstop/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isApiPath } from './api-prefixes.ts';
import { access, openToAnyone } from '../../lib/access.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function normalise(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed || '/';
}

export interface SpaOptions {
  distDir: string;
  /** The mailbox the contact form writes to; defaults to the server's CONTACT_EMAIL. */
  contactEmail?: string;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Page-level settings the web app reads from its HTML, so one build serves any configuration. */
export function injectSettings(html: string, settings: { contactEmail?: string | undefined }): string {
  if (!settings.contactEmail) return html;
  const meta = `<meta name="fullstop-contact-email" content="${escapeAttr(settings.contactEmail)}">`;
  return html.replace('</head>', `${meta}</head>`);
}

/**
 * Serves the built web app. Hashed assets are cached for a year; HTML is revalidated on every visit.
 * A path the SPA knows answers 200 with its page (a prerendered one when the build made it), and any other
 * path answers the SPA's 404 page with status 404, so crawlers and monitors see the truth; an unknown path under
 * one of the API's prefixes answers JSON. Registered last: every API route is in by then.
 */
export const spa = fp<SpaOptions>(async (app, opts) => {
  // Copied now, before this plugin's own pages and files are added as routes.
  const apiPrefixes = new Set(app.apiPrefixes);
  const distDir = path.resolve(opts.distDir);
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'web app not built: run "npm run build"; only the API is served');
    return;
  }
  const known = new Set(spaPaths);
  const contactEmail = opts.contactEmail ?? (app.hasDecorator('env') ? app.env.CONTACT_EMAIL : undefined);
  // The build writes the bare SPA shell to shell.html when index.html holds the prerendered home page.
  // Looked up per request (a cheap stat) so a rebuild under a running server is picked up.
  const shellFile = () => (existsSync(path.join(distDir, 'shell.html')) ? path.join(distDir, 'shell.html') : indexFile);
  const htmlCache = new Map<string, { mtimeMs: number; html: string }>();
  const readHtml = (file: string): string => {
    const cached = htmlCache.get(file);
    const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    // Mid-rebuild the file can be briefly missing: keep answering with the last good copy.
    if (cached && (mtimeMs === undefined || cached.mtimeMs === mtimeMs)) return cached.html;
    const html = injectSettings(readFileSync(file, 'utf8'), { contactEmail });
    htmlCache.set(file, { mtimeMs: mtimeMs ?? 0, html });
    return html;
  };
  const pageFor = (pathname: string): string => {
    if (pathname === '/') return indexFile;
    const prerendered = path.join(distDir, pathname, 'index.html');
    return prerendered.startsWith(distDir + path.sep) && existsSync(prerendered) ? prerendered : shellFile();
  };
  const notFoundFile = () => (existsSync(path.join(distDir, '404.html')) ? path.join(distDir, '404.html') : shellFile());

  // The built files are as public as the pages; fastify-static's routes take no config.access of ours.
  await app.register(async (files) => {
    openToAnyone(files);
    await files.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      serve: true,
      // The build wrote each asset's .br and .gz beside it (apps/web/scripts/precompress-plugin.ts): sent as they
      // are, smaller than on-the-fly compression and free of CPU per request.
      preCompressed: true,
      // Our setHeaders decides caching; the plugin's own default (max-age=0) would otherwise win.
      cacheControl: false,
      setHeaders(res, filePath) {
        const rel = path.relative(distDir, filePath);
        res.setHeader('cache-control', rel.startsWith(`assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
        // One address, several encodings: a shared cache must key on what the browser accepts.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  });

  const sendPage = (reply: FastifyReply, file: string, status: number) =>
    reply
      .code(status)
      .header('cache-control', REVALIDATE)
      .type('text/html; charset=utf-8')
      .send(readHtml(file));

  for (const route of known) {
    app.get(route, { config: { access: access.anyone }, schema: { hide: true } }, async (request: FastifyRequest, reply) =>
      sendPage(reply, pageFor(normalise(request.url.split('?')[0] ?? '/')), 200),
    );
  }

  app.setNotFoundHandler(async (request, reply) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url, apiPrefixes)) {
      const pathname = normalise(request.url.split('?')[0] ?? '/');
      if (known.has(pathname)) return sendPage(reply, pageFor(pathname), 200);
      return sendPage(reply, notFoundFile(), 404);
    }
    return reply.code(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'NOT_FOUND' });
  });
}, { name: 'spa', dependencies: ['api-prefixes'] });
