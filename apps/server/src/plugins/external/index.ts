import fp from 'fastify-plugin';
import { compression } from './compression.ts';
import { docs } from './docs.ts';
import { requestLimits } from './request-limits.ts';
import { securityHeaders } from './security-headers.ts';

/**
 * Wrappers around third-party plugins (and Node's own limits), registered before anything of ours. The docs
 * come last of them but still before the routes, so the OpenAPI document sees every route.
 */
export const externalPlugins = fp(
  async (app) => {
    for (const plugin of [compression, securityHeaders, requestLimits, docs]) await app.register(plugin);
  },
  { name: 'external-plugins' },
);
