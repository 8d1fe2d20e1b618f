import type { FastifyPluginAsync } from 'fastify';

/** The test engine's routes, queue and workers (tests, runs, reports, insights). */
export const engineFeature: FastifyPluginAsync = async () => {};
