import os from 'node:os';
import { startBenchServer, stopServersOnSignals } from './bench-server.ts';
import { machineCpuSeconds } from './cpu.ts';

const CLIENTS = Number(process.env.BENCH_THROUGHPUT_CLIENTS ?? 5);
const TESTS = Number(process.env.BENCH_THROUGHPUT_TESTS ?? 200);
const ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 2);
/**
 * The servers compared, `name:VAR=value;VAR=value`, each started fresh in every round, in turn. The baseline is
 * the old behaviour: no capacity, ENGINE_WORKERS (4) attempts at once whatever their kind.
 */
const VARIANTS = parseVariants(process.env.BENCH_THROUGHPUT_VARIANTS ?? 'baseline:ENGINE_CAPACITY=0,capacity:,capacity-8-workers:ENGINE_WORKERS=8');

/** `name:VAR=value;VAR=value,name2:...`: servers to compare, each by a name and its settings. */
export function parseVariants(text: string): { name: string; env: Record<string, string> }[] {
  return text.split(',').map((v) => {
    const [name, settings = ''] = v.split(':') as [string, string?];
    return { name, env: Object.fromEntries(settings.split(';').filter(Boolean).map((kv) => kv.split('=') as [string, string])) };
  });
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** A suite of `count` API tests, each the two requests of the demo's "Health check". */
function apiSuite(count: number): { path: string; content: string }[] {
  const tests = Array.from({ length: count }, (_, i) => ({
    name: `health ${i + 1}`,
    kind: 'api',
    options: {
      requests: [
        { name: 'healthz answers ok', path: '/healthz', expect: { status: 200, json: { status: 'ok' } } },
        { name: 'tests need credentials', path: '/test/fetch/all', expect: { status: 401 } },
      ],
    },
  }));
  return [{ path: 'suite.json', content: JSON.stringify({ version: 1, groups: [{ name: 'API', tests }] }) }];
}

/** One variant once: CLIENTS clients queue TESTS API tests between them at once; time and CPU until all ended. */
async function once(variant: (typeof VARIANTS)[number], port: number) {
  const server = await startBenchServer(port, { ENGINE_WORKERS: '4', ENGINE_ALLOW_PRIVATE_TARGETS: 'true', ENGINE_DEMO_SUITE: 'false', ...variant.env });
  try {
    const clients: string[] = [];
    for (let c = 0; c < CLIENTS; c++) {
      const { clientId } = await server.call<{ clientId: string }>('POST', '/operator/clients', {
        name: `Bench ${c + 1}`,
        website: server.base,
        email: `bench${c + 1}@example.com`,
        password: 'bench-password-0123456789',
        username: `bench${c + 1}`,
      });
      const share = Math.floor(TESTS / CLIENTS) + (c < TESTS % CLIENTS ? 1 : 0);
      await server.call('POST', `/operator/clients/${clientId}/suite`, { files: apiSuite(share) });
      clients.push(clientId);
    }
    const before = { machine: machineCpuSeconds(), tree: server.cpu.seconds() };
    const started = performance.now();
    const outcomes = await Promise.all(clients.map((id) => server.run(id)));
    const wall = (performance.now() - started) / 1000;
    const after = { machine: machineCpuSeconds(), tree: server.cpu.seconds() };
    const tests = outcomes.reduce((a, o) => a + o.tests.length, 0);
    const passed = outcomes.reduce((a, o) => a + o.tests.filter((t) => t.status === 'passed').length, 0);
    return { wall, tests, passed, cpu: after.tree - before.tree, machineCpu: after.machine - before.machine };
  } finally {
    await server.stop();
  }
}

/** 200 queued API tests from 5 clients: tests per minute and CPU per test, every variant in the same run. */
export async function measureApiThroughput(): Promise<void> {
  console.log(`\n# ${TESTS} queued API tests from ${CLIENTS} clients (${ROUNDS} rounds, variants in turn; ${os.availableParallelism()} cores)`);
  const results = new Map<string, { wall: number; tests: number; cpu: number }[]>();
  for (let r = 1; r <= ROUNDS; r++) {
    // The order turns each round, so no variant always runs first on a cold machine.
    const order = VARIANTS.map((_, i) => VARIANTS[(i + r - 1) % VARIANTS.length]!);
    for (const v of order) {
      const res = await once(v, 3160 + r);
      (results.get(v.name) ?? results.set(v.name, []).get(v.name)!).push(res);
      console.log(
        `round ${r} ${v.name.padEnd(20)} ${res.passed}/${res.tests} passed in ${round1(res.wall)} s: ${round1((res.tests / res.wall) * 60)} tests/min, ` +
          `${round2(res.cpu / res.tests)} CPU-s a test (machine ${round2(res.machineCpu / res.tests)}); load average ${round1(os.loadavg()[0]!)}`,
      );
    }
  }
  const base = results.get(VARIANTS[0]!.name)!;
  const perMinute = (xs: { wall: number; tests: number }[]) => (xs.reduce((a, x) => a + x.tests, 0) / xs.reduce((a, x) => a + x.wall, 0)) * 60;
  const cpuPerTest = (xs: { cpu: number; tests: number }[]) => xs.reduce((a, x) => a + x.cpu, 0) / xs.reduce((a, x) => a + x.tests, 0);
  console.log('\nvariant: tests/min pooled (ratio to the baseline), CPU-s a test');
  for (const [name, xs] of results) {
    console.log(`${name.padEnd(20)} ${round1(perMinute(xs))} tests/min (${round2(perMinute(xs) / perMinute(base))}), ${round2(cpuPerTest(xs))} CPU-s a test`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  stopServersOnSignals();
  await measureApiThroughput();
}
