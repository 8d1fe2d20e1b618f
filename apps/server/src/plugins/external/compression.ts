import compress from '@fastify/compress';
import fp from 'fastify-plugin';

/** Answers of 1 KiB or more are compressed in whatever encoding the client accepts. */
export const compression = fp(async (app) => {
  await app.register(compress, { global: true, threshold: 1024 });
});
