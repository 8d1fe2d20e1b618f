/**
 * The pdf on download, through the server's own code (storedReport + serveReport over a data-directory store,
 * in a bare Fastify app): the first download prints and stores it, the second reads the stored file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyInstance } from 'fastify';
import { closeReportBrowsers } from '../../apps/server/src/features/reports/report-pdf.ts';
import { serveReport, storedReport } from '../../apps/server/src/features/reports/report-service.ts';
import { DataDirStore } from '../../apps/server/src/lib/artifact-store/index.ts';

export interface DownloadFigures {
  /** No report browser running: the launch is part of it. */
  coldFirstMs: number;
  /** Another report's first download while the report browser is up. */
  warmFirstMs: number;
  secondMs: number;
  pdfBytes: number;
}

export async function downloadApp(root: string, chromiumPath: string): Promise<FastifyInstance> {
  const store = new DataDirStore(root);
  const app = Fastify({ logger: false });
  app.get<{ Params: { name: string } }>('/pdf/:name', async (request, reply) => {
    const report = await storedReport({
      store,
      prefix: `reports/${request.params.name}`,
      format: 'pdf',
      formats: ['html', 'pdf'],
      clientName: 'Acme Shop',
      reportName: request.params.name,
      writtenAt: new Date(),
      runId: null,
      printPdfWith: chromiumPath,
    });
    return serveReport(request, reply, report);
  });
  app.addHook('onClose', closeReportBrowsers);
  await app.ready();
  return app;
}

async function timed(app: FastifyInstance, name: string): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  const res = await app.inject({ url: `/pdf/${name}` });
  const ms = performance.now() - t;
  if (res.statusCode !== 200 || res.rawPayload.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error(`download of ${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return { ms, bytes: res.rawPayload.length };
}

/** One round: two reports of this html stored, the first downloaded twice, then the second once. */
export async function downloadRound(app: FastifyInstance, root: string, html: string, tag: string): Promise<DownloadFigures> {
  for (const name of [`${tag}-a`, `${tag}-b`]) {
    await mkdir(path.join(root, 'reports', name), { recursive: true });
    await writeFile(path.join(root, 'reports', name, 'report.html'), html);
  }
  await closeReportBrowsers();
  const cold = await timed(app, `${tag}-a`);
  const second = await timed(app, `${tag}-a`);
  const warm = await timed(app, `${tag}-b`);
  return { coldFirstMs: cold.ms, warmFirstMs: warm.ms, secondMs: second.ms, pdfBytes: cold.bytes };
}
