import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { rawZip, zeroBomb } from '../../packages/engine/test/fixtures/raw-zip.ts';

/**
 * The bench's pressure, in a process of its own so that it never delays the reader's measurements: the site
 * client A's tests hammer (its load test alone sends thousands of requests a second), a storm of connections
 * reset a few milliseconds after they start, and inflation-bomb uploads. Driven by the bench over IPC.
 */
const STORM_CONNECTIONS = 200;

export type PressureMessage = { type: 'site'; url: string } | { type: 'stopped'; resets: number; bombs: number; statuses: Record<number, number> };
export type PressureCommand = { type: 'start'; base: string; clientId: string; token: string } | { type: 'stop' };

const send = (message: PressureMessage) => process.send?.(message);

/** `site`: only the site; `attack`: only the storm and the bombs (a process each, see run.ts). */
const mode = process.argv[2] === 'site' ? 'site' : 'attack';

const page = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><a href="/about">About</a></main></body></html>`;
const site = createServer((req, res) => {
  res.setHeader('content-type', req.url === '/api/status' ? 'application/json' : 'text/html; charset=utf-8');
  res.end(req.url === '/api/status' ? '{"status":"ok"}' : page(req.url === '/about' ? 'About' : 'Home'));
});
if (mode === 'site') site.listen(0, '127.0.0.1', () => send({ type: 'site', url: `http://127.0.0.1:${(site.address() as AddressInfo).port}` }));
else send({ type: 'site', url: '' });

let stopping = false;
let resets = 0;
let bombs = 0;
const statuses: Record<number, number> = {};

/** Connections that send half a request and are reset a few milliseconds later, as a misbehaving browser does. */
async function resetStorm(base: string): Promise<void> {
  const { hostname, port } = new URL(base);
  while (!stopping) {
    await Promise.all(
      Array.from(
        { length: STORM_CONNECTIONS },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect(Number(port), hostname, () => {
              socket.write(`GET /test/runs HTTP/1.1\r\nHost: ${hostname}\r\n`);
              setTimeout(() => {
                socket.resetAndDestroy();
                resolve();
              }, 3);
            });
            socket.on('error', () => resolve());
            resets += 1;
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** An APK whose only entry, AndroidManifest.xml, inflates to 200 MiB of zeros (the engine tests' bomb writer). */
function inflationBomb(): Buffer {
  const mebibytes = 200;
  return rawZip([{ name: 'AndroidManifest.xml', data: zeroBomb(mebibytes), method: 8, declaredSize: mebibytes * 1024 ** 2 }]);
}

async function bombUploads(base: string, clientId: string, token: string): Promise<void> {
  const bomb = inflationBomb();
  while (!stopping) {
    const form = new FormData();
    form.append('file', new Blob([bomb], { type: 'application/vnd.android.package-archive' }), 'bomb.apk');
    const res = await fetch(`${base}/upload/android/${clientId}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }).catch(() => null);
    statuses[res?.status ?? 0] = (statuses[res?.status ?? 0] ?? 0) + 1;
    await res?.body?.cancel();
    bombs += 1;
    await new Promise((r) => setTimeout(r, 500));
  }
}

let running: Promise<unknown> = Promise.resolve();
process.on('message', (command: PressureCommand) => {
  if (command.type === 'start') {
    running = Promise.all([resetStorm(command.base), bombUploads(command.base, command.clientId, command.token)]);
  } else {
    stopping = true;
    void running.then(() => {
      send({ type: 'stopped', resets, bombs, statuses });
      if (mode === 'site') site.close();
      process.disconnect();
    });
  }
});
