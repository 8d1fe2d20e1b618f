import { promises as fs } from 'node:fs';
import path from 'node:path';
import { renderReportHtml } from './html/render-report.ts';
import { collectImages } from './screenshots.ts';
import type { ReportDirs, Reporter, RunReport } from './types.ts';

export { escapeHtml } from './html/escape.ts';

/** Each attempt's log, in attempt order ('' when it is gone). */
async function readLogs(report: RunReport, runDir: string): Promise<string[]> {
  return Promise.all(report.attempts.map((a) => (a.logPath ? fs.readFile(path.join(runDir, a.logPath), 'utf8').catch(() => '') : '')));
}

/** The html of one run with its screenshots inline: the html report, which the pdf is later printed from. */
export async function buildReportHtml(report: RunReport, { runDir }: Pick<ReportDirs, 'runDir'>): Promise<string> {
  const [logs, images] = await Promise.all([readLogs(report, runDir), collectImages(report, runDir)]);
  return renderReportHtml(report, { logs, image: (p) => images.get(p) });
}

/** One self-contained page (inline styles, no scripts, no outside requests) a person can read and forward. */
export const htmlReporter: Reporter = {
  format: 'html',
  contentType: 'text/html; charset=utf-8',
  fileName: 'report.html',
  async write(report, dirs) {
    const file = path.join(dirs.outDir, this.fileName);
    await fs.writeFile(file, await buildReportHtml(report, dirs));
    return file;
  },
};
