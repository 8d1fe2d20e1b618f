import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { computeSecurityHeaders } from './security-headers.ts';

/**
 * The OpenAPI document, generated from every route's zod schemas, and its page at /docs (JSON at /docs/json).
 * Registered before the routes so it sees them all. swagger-ui loads only its own scripts from our origin, but
 * it sets a few inline styles: its pages alone may use them (the product's own pages need none).
 */
export const docs = fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Fullstop QA API', version: '1.0.0', description: 'The portal, CI and operator API of Fullstop QA.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  const docsCsp = (computeSecurityHeaders()['content-security-policy'] ?? '').replace(
    "style-src 'self'",
    "style-src 'self' 'unsafe-inline'",
  );
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: false,
    uiHooks: {
      onRequest: (_request, reply, next) => {
        reply.header('content-security-policy', docsCsp);
        next();
      },
    },
  });
});
