import { startBenchServer } from './bench-server.ts';

export interface RunAllFigures {
  runAllSeconds: number;
  longestTest: { name: string; seconds: number };
  singleTests: { name: string; seconds: number }[];
  /** run-all wall time / longest single test alone; target <= 1.2. */
  ratio: number;
  workers: number;
}

/**
 * "Run all" of the demo suite against the product's own server (fresh embedded database, demo client), timed
 * from the request to the answer of `wait`, compared with the longest test of the suite run alone. The fuller
 * bench, with CPU and N run-alls in a row, is run-all-repeat.ts (`npm run bench:run-all`).
 */
export async function measureRunAll(options: { port?: number; workers?: number } = {}): Promise<RunAllFigures> {
  const workers = options.workers ?? 4;
  const server = await startBenchServer(options.port ?? 3153, { ENGINE_WORKERS: String(workers) });
  try {
    const run = async (testName?: string) => {
      const started = performance.now();
      const body = await server.run(server.demoClientId, testName);
      return { seconds: (performance.now() - started) / 1000, body };
    };
    // A first run warms caches (Chromium's, wapiti's, the OS's), as a real server would be warm.
    const warm = await run();
    const all = await run();
    const singleTests: { name: string; seconds: number }[] = [];
    for (const t of warm.body.tests) {
      const one = await run(t.testName);
      singleTests.push({ name: t.testName, seconds: Math.round(one.seconds * 10) / 10 });
    }
    const longest = singleTests.reduce((a, b) => (b.seconds > a.seconds ? b : a));
    return {
      runAllSeconds: Math.round(all.seconds * 10) / 10,
      longestTest: longest,
      singleTests,
      ratio: Math.round((all.seconds / longest.seconds) * 100) / 100,
      workers,
    };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureRunAll({ workers: Number(process.env.ENGINE_WORKERS ?? 4) });
  console.log(JSON.stringify(figures, null, 2));
  console.log(`run-all ${figures.runAllSeconds} s vs longest single test (${figures.longestTest.name}) ${figures.longestTest.seconds} s: ratio ${figures.ratio} (target <= 1.2)`);
}
