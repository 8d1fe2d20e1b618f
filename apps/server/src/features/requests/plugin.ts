import type { FastifyPluginAsync } from 'fastify';

/** Client requests: a new feature to test, a manual test, a free retest. */
export const requestsFeature: FastifyPluginAsync = async () => {};
