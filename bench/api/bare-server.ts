import Fastify from 'fastify';
import { securityHeaders } from '../../apps/server/src/plugins/external/security-headers.ts';

// The baselines: a bare Fastify route answering a JSON object the size of a client profile, and the same
// route behind the product's security headers (helmet), which every real answer carries.
const body = {
  id: '00000000-0000-0000-0000-000000000000',
  website: 'http://localhost:3000',
  apiToken: 'fsk_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  clientName: 'Fullstop Demo',
  androidAppPath: null,
  androidAppUploaded: null,
  iosAppPath: null,
  iosAppUploaded: null,
};
const port = Number(process.env.PORT);
const bare = Fastify({ logger: false });
bare.get('/bare', async () => body);
await bare.listen({ port, host: '127.0.0.1' });
const withHeaders = Fastify({ logger: false });
await withHeaders.register(securityHeaders);
withHeaders.get('/bare', async () => body);
await withHeaders.listen({ port: port + 1, host: '127.0.0.1' });
console.log('ready');
