import { spawn } from 'node:child_process';
import { type Network } from '../../packages/engine/src/policy/network-profiles.ts';
import { startPolicyProxy } from '../../packages/engine/src/policy/policy-proxy.ts';
import { createTargetGuard } from '../../packages/engine/src/policy/target-guard.ts';

/**
 * The policy proxy's CPU cost of shaping a network (decision 0078, Networks): `node --import tsx
 * bench/engine/network-shaping.ts`. The proxy runs alone in this process; the site and the client each in their
 * own process, so this process's CPU (process.cpuUsage) is the proxy's. Each round downloads the same bytes
 * through an unshaped proxy and through each profile, in an order that turns each round; the figure is CPU-ms per
 * MB moved, and its ratio to the unshaped proxy's in the same round. Figures, never pass/fail.
 */
const ROUNDS = Number(process.argv[2] ?? 3);
const CONNECTIONS = 8;
const MB_PER_CONNECTION = 2;
const PROFILES: Network[] = ['none', 'cable', '4g', 'fast-3g'];

const SITE = `
const body = Buffer.alloc(${MB_PER_CONNECTION} * 1024 * 1024, 120);
const server = require('node:http').createServer((req, res) => res.writeHead(200, { 'content-length': body.length }).end(body));
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

/** Downloads the body over CONNECTIONS parallel connections through the proxy (argv: proxy, url). */
const CLIENT = `
const http = require('node:http');
const [proxy, url] = process.argv.slice(1);
const { hostname, port } = new URL(proxy);
let bytes = 0;
const one = () => new Promise((resolve, reject) => {
  http.get({ host: hostname, port, path: url, agent: false }, (res) => {
    res.on('data', (c) => (bytes += c.length)).on('end', resolve).on('error', reject);
  }).on('error', reject);
});
Promise.all(Array.from({ length: ${CONNECTIONS} }, one)).then(() => process.stdout.write(String(bytes)));
`;

function child(source: string, args: string[] = []): { done: Promise<string>; firstLine: Promise<string>; kill(): void } {
  const p = spawn(process.execPath, ['-e', source, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let resolveLine: (line: string) => void = () => {};
  const firstLine = new Promise<string>((resolve) => (resolveLine = resolve));
  p.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    if (out.includes('\n')) resolveLine(out.split('\n')[0]!);
  });
  const done = new Promise<string>((resolve, reject) => p.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`)))));
  return { done, firstLine, kill: () => p.kill('SIGKILL') };
}

async function measure(network: Network, siteUrl: string): Promise<{ cpuMsPerMb: number; seconds: number; mbps: number }> {
  const proxy = await startPolicyProxy(createTargetGuard({ baseUrl: `${siteUrl}/`, allowedOrigins: [], allowPrivateAddresses: true }), { network });
  try {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const bytes = Number(await child(CLIENT, [proxy.url, `${siteUrl}/`]).done);
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    const mb = bytes / 1024 / 1024;
    if (mb !== CONNECTIONS * MB_PER_CONNECTION) throw new Error(`moved ${mb} MB`);
    return { cpuMsPerMb: (used.user + used.system) / 1000 / mb, seconds, mbps: (bytes * 8) / seconds / 1e6 };
  } finally {
    await proxy.close();
  }
}

const site = child(SITE);
site.done.catch(() => {}); // killed at the end: its exit is no failure
const siteUrl = `http://127.0.0.1:${(await site.firstLine).trim()}`;
try {
  console.log(`${CONNECTIONS} connections × ${MB_PER_CONNECTION} MB through the policy proxy, ${ROUNDS} rounds`);
  for (let round = 0; round < ROUNDS; round++) {
    const order = PROFILES.map((_, i) => PROFILES[(i + round) % PROFILES.length]!);
    const figures = new Map<Network, Awaited<ReturnType<typeof measure>>>();
    for (const network of order) figures.set(network, await measure(network, siteUrl));
    const base = figures.get('none')!.cpuMsPerMb;
    for (const network of PROFILES) {
      const f = figures.get(network)!;
      console.log(`round ${round + 1}  ${network.padEnd(8)} ${f.cpuMsPerMb.toFixed(2).padStart(7)} CPU-ms/MB  ×${(f.cpuMsPerMb / base).toFixed(2)}  ${f.seconds.toFixed(2)} s  ${f.mbps.toFixed(1)} Mbit/s`);
    }
  }
} finally {
  site.kill();
}
