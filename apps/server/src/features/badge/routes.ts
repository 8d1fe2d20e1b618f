import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BADGE_PATH_PREFIX, BADGE_PATHS, badgeResponse, type BadgeState, CI_SCRIPT_PATH } from '@fullstop/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUrl } from '../../config/env.ts';
import { access } from '../../lib/access.ts';
import { audit } from '../../lib/audit.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { SERVER_DIR } from '../../lib/server-dir.ts';
import { ownClientId } from '../auth/index.ts';
import { noStore } from '../auth/index.ts';
import { type Badge, badgeOf, badgeStateOf, clientOfBadgeToken, regenerateBadge } from './repository.ts';
import { badgeSvg } from './svg.ts';

/** The one-file CI runner (no dependencies) a client's CI downloads from its Fullstop server. */
const CI_SCRIPT = path.join(SERVER_DIR, 'ci/fullstop-ci.mjs');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const SVG_SUFFIX = '.svg';

/**
 * The CI kit: the status badge (`GET /badge/<token>.svg` for anyone holding the address, a README), the client's
 * routes to read it and to replace its token, and the one-file CI runner.
 */
export const badgeRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['ci'];
  const script = await readFile(CI_SCRIPT, 'utf8');

  app.get(
    CI_SCRIPT_PATH,
    { config: { access: access.anyone }, schema: { tags, summary: 'The CI runner: `node fullstop-ci.mjs --junit results.xml` (Node 18+, no dependencies); exit 0 passed, 1 failed, 2 could not run', response: { 200: z.string() } } },
    async (_request, reply) => reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script),
  );
  const answer = (badge: Badge, state: BadgeState) => {
    const url = `${publicUrl(app.env)}${BADGE_PATH_PREFIX}${badge.token}${SVG_SUFFIX}`;
    return { url, markdown: `[![Fullstop QA](${url})](${publicUrl(app.env)})`, state, createdAt: badge.createdAt.toISOString() };
  };

  app.get(
    BADGE_PATHS.badge,
    {
      config: { access: access.clientReaders },
      onSend: noStore,
      schema: { tags, summary: "The client's status badge address (created on the first call) and what it shows now", response: { 200: badgeResponse, ...errorResponses(401, 403) } },
    },
    async (request) => {
      const clientId = ownClientId(request.principal);
      return answer(await badgeOf(app.db, app.keys, clientId), await badgeStateOf(app.db, clientId));
    },
  );

  app.post(
    BADGE_PATHS.regenerate,
    {
      config: { access: access.clientWriters, action: 'regenerate the badge' },
      onSend: noStore,
      schema: { tags, summary: 'A new badge address; the old one answers 404 at once', response: { 200: badgeResponse, ...errorResponses(401, 403) } },
    },
    async (request) => {
      const clientId = ownClientId(request.principal);
      const badge = await regenerateBadge(app.db, app.keys, clientId);
      await audit(app.db, request.log, { type: 'badge.regenerated', clientId, userId: request.principal?.userId, address: request.ip });
      return answer(badge, await badgeStateOf(app.db, clientId));
    },
  );

  app.get(
    `${BADGE_PATH_PREFIX}:file`,
    {
      config: { access: access.anyone },
      schema: {
        tags,
        summary: "A client's status badge (SVG); the address is the only credential. Unknown addresses answer 404.",
        params: z.object({ file: z.string().max(200) }),
        response: { 200: z.string().describe('image/svg+xml'), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const token = file.endsWith(SVG_SUFFIX) ? file.slice(0, -SVG_SUFFIX.length) : '';
      // One answer for a malformed, an unknown and a replaced token: the address never tells which.
      const clientId = TOKEN.test(token) ? await clientOfBadgeToken(app.db, app.keys, token) : null;
      if (!clientId) throw new NotFoundError('Badge not found');
      const svg = badgeSvg(await badgeStateOf(app.db, clientId));
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('cache-control', 'no-cache, max-age=0')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        // A README on another site (GitLab, a status page) shows it in an <img>: the default same-origin would block it.
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(svg);
    },
  );
};
