import Fastify from 'fastify';

// The baseline: a bare Fastify route answering a JSON object the size of a client profile.
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
const app = Fastify({ logger: false });
app.get('/bare', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
