import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document, generated from every route's zod schemas, and its page at /docs (JSON at /docs/json).
 * Registered before the routes so it sees them all. swagger-ui loads only its own scripts from our origin,
 * so the site's strict CSP needs no exception.
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
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: false });
});
