/**
 * The measured process of bench:artifacts (started by run.ts, one per store and phase, so its memory is its own):
 * a Fastify server over one artifact store that takes an upload into the store and serves an object back the way
 * the report route does (`reply.send(body)` with its content-length). Its settings come as JSON in argv[2]:
 * `{ "store": "data-dir", "root": "/tmp/..." }` or `{ "store": "s3", "env": { S3_ENDPOINT, ... } }`.
 * Prints `{"port":N}` once listening; exits when its parent closes stdin.
 */
import Fastify from 'fastify';
import { loadEnv } from '../../apps/server/src/config/env.ts';
import { type ArtifactStore, DataDirStore, s3ConfigOf } from '../../apps/server/src/lib/artifact-store/index.ts';
import { S3Store } from '../../apps/server/src/lib/artifact-store/s3-store.ts';

const settings = JSON.parse(process.argv[2] ?? '{}') as { store: 'data-dir'; root: string } | { store: 's3'; env: Record<string, string> };
const store: ArtifactStore =
  settings.store === 'data-dir' ? new DataDirStore(settings.root) : new S3Store(s3ConfigOf(loadEnv({ NODE_ENV: 'test', ...settings.env })));
await store.check();

const app = Fastify({ logger: false });
// The upload's body reaches the store as the request stream: nothing buffered, no size limit (a build can be large).
app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

app.put<{ Params: { '*': string } }>('/objects/*', async (request) => {
  const started = performance.now();
  const bytes = await store.put(request.params['*'], request.raw);
  return { bytes, ms: performance.now() - started };
});

app.get<{ Params: { '*': string } }>('/objects/*', async (request, reply) => {
  const got = await store.get(request.params['*']);
  if (!got) return reply.code(404).send({ message: 'no such object' });
  return reply.header('content-length', got.size).type('application/octet-stream').send(got.body);
});

/** Resident memory now and at its highest since the process started (bytes). */
app.get('/memory', async () => ({ rss: process.memoryUsage.rss(), peakRss: process.resourceUsage().maxRSS * 1024 }));

process.stdin.on('error', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`);
