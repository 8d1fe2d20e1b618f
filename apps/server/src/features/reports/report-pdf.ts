import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { openReportBrowser, REPORT_BROWSER_IDLE_MS, type ReportPrinter } from '@fullstop/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { ArtifactStore } from '../../lib/artifact-store/index.ts';
import { AppError, NotFoundError } from '../../lib/errors.ts';
import type { EngineConfig } from '../engine/index.ts';

// A report's pdf is printed on its first download, not when its test ends (decision 0066): from the stored html,
// by this process's one report browser, then kept in the artifact store beside the html (the key the writer of
// old used, so retention deletes it with its run). Every later download is the stored file.

/** An html report is read whole to print or rewrite it; ours stay near 2 MB, so a bigger file is not one we wrote. */
export const MAX_HTML_BYTES = 64 * 1024 * 1024;
/** What a client is told to wait before asking again for a pdf that could not be printed. */
const RETRY_AFTER_SECONDS = 30;

/** The print failed, timed out, or no Chromium is installed: the html report is still there. */
export class ReportPdfUnavailableError extends AppError {
  constructor(cause?: unknown) {
    super(503, 'REPORT_PDF_UNAVAILABLE', 'The pdf of this report could not be printed just now. Please try again in a minute; the html report can be opened meanwhile.', {
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      cause,
    });
  }
}

/** The Chromium pdfs are printed with when pdfs are offered (ENGINE_REPORT_PDF), else undefined. */
export function pdfPrinterPath(config: Pick<EngineConfig, 'reportPdf' | 'chromiumPath'>): string | undefined {
  return config.reportPdf ? config.chromiumPath : undefined;
}

/** One report browser per process (and per Chromium path, which only tests change), closed when idle. */
const printers = new Map<string, ReportPrinter>();

function printerOf(chromiumPath: string): ReportPrinter {
  let printer = printers.get(chromiumPath);
  if (!printer) printers.set(chromiumPath, (printer = openReportBrowser(chromiumPath, { idleMs: REPORT_BROWSER_IDLE_MS })));
  return printer;
}

/** Whether this process has a report browser open now (tests: a finished run opens none). */
export const reportBrowserOpen = (): boolean => [...printers.values()].some((p) => p.isOpen());

/** Closes this process's report browser (the server is shutting down). */
export async function closeReportBrowsers(): Promise<void> {
  const open = [...printers.values()];
  printers.clear();
  await Promise.all(open.map((p) => p.close()));
}

/** The prints under way, by store and key: two first downloads of one pdf print it once. */
const underWay = new WeakMap<ArtifactStore, Map<string, Promise<Buffer>>>();

export interface PdfToPrint {
  store: ArtifactStore;
  /** Where the pdf is kept once printed. */
  key: string;
  htmlKey: string;
  chromiumPath: string;
}

/** The pdf printed from the stored html, and kept under `key`; one print per key at a time in this process. */
export function printedPdf(pdf: PdfToPrint, log: FastifyBaseLogger): Promise<Buffer> {
  const inStore = underWay.get(pdf.store) ?? new Map<string, Promise<Buffer>>();
  underWay.set(pdf.store, inStore);
  const running = inStore.get(pdf.key);
  if (running) return running;
  const print = printAndKeep(pdf, log).finally(() => inStore.delete(pdf.key));
  inStore.set(pdf.key, print);
  return print;
}

async function printAndKeep({ store, key, htmlKey, chromiumPath }: PdfToPrint, log: FastifyBaseLogger): Promise<Buffer> {
  const gone = () => new NotFoundError('This report is no longer stored');
  const stored = await store.get(htmlKey).catch((err: unknown) => {
    log.warn({ err, key: htmlKey }, 'reading a report file failed');
    throw gone();
  });
  if (!stored) throw gone();
  stored.body.on('error', (err) => log.warn({ err, key: htmlKey }, 'reading a report file failed'));
  if (stored.size > MAX_HTML_BYTES) {
    stored.body.destroy();
    throw gone();
  }
  const html = await text(stored.body).catch(() => {
    throw gone();
  });
  let pdf: Buffer;
  try {
    pdf = await printerOf(chromiumPath).printPdf(html);
  } catch (err) {
    log.warn({ err, key }, 'a report pdf could not be printed');
    throw new ReportPdfUnavailableError(err);
  }
  // Whole or not at all (the store renames a finished file into place); a pdf that could not be kept is still
  // served, and printed again by the next download.
  await store.put(key, Readable.from([pdf]), { contentType: 'application/pdf', size: pdf.length }).catch((err: unknown) => {
    log.warn({ err, key }, 'a printed report pdf could not be stored');
  });
  return pdf;
}
