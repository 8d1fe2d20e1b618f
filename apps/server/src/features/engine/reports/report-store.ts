import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ReportGroups } from '@fullstop/contracts';
import { reporters } from '@fullstop/engine';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { engineRunTests } from '../../../db/schema/index.ts';
import { NotFoundError } from '../../../lib/errors.ts';

/**
 * GET /report/fetch/all: the latest reports of each test, keyed by group then test name, each with its
 * formats and when they were written. Null when the client has none (the route answers 404).
 */
export async function listReports(db: Db, clientId: string): Promise<ReportGroups | null> {
  const rows = await db
    .selectDistinctOn([engineRunTests.testName], {
      testName: engineRunTests.testName,
      group: engineRunTests.groupName,
      formats: engineRunTests.reportFormats,
      finishedAt: engineRunTests.finishedAt,
    })
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), isNotNull(engineRunTests.reportFormats)))
    .orderBy(engineRunTests.testName, desc(engineRunTests.finishedAt));
  if (rows.length === 0) return null;
  const groups: ReportGroups = {};
  for (const r of rows) {
    const lastUpdated = (r.finishedAt ?? new Date()).toISOString();
    const group = (groups[r.group] ??= {});
    group[r.testName] = { lastUpdated, formats: (r.formats ?? []).map((format) => ({ format, lastUpdated })) };
  }
  return groups;
}

export interface ReportFile {
  stream: NodeJS.ReadableStream;
  size: number;
  contentType: string;
  fileName: string;
}

/** The latest file of one report in one format, only ever from this client's own runs. */
export async function openReport(db: Db, clientId: string, reportName: string, format: string): Promise<ReportFile> {
  const reporter = reporters.find((r) => r.format === format.toLowerCase());
  if (!reporter) throw new NotFoundError(`Unknown report format "${format}": use json, html, zip or xml`);
  const [row] = await db
    .select({ dir: engineRunTests.reportDir, formats: engineRunTests.reportFormats, finishedAt: engineRunTests.finishedAt })
    .from(engineRunTests)
    .where(and(eq(engineRunTests.clientId, clientId), eq(engineRunTests.testName, reportName), isNotNull(engineRunTests.reportFormats)))
    .orderBy(desc(engineRunTests.finishedAt))
    .limit(1);
  if (!row?.dir) throw new NotFoundError(`Report "${reportName}" not found`);
  if (!row.formats?.includes(reporter.format)) throw new NotFoundError(`Report "${reportName}" has no ${reporter.format} format`);
  const file = path.join(row.dir, reporter.fileName);
  const info = await stat(file).catch(() => null);
  if (!info) throw new NotFoundError(`Report "${reportName}" in ${reporter.format} is no longer stored`);
  const stamp = (row.finishedAt ?? new Date()).toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return {
    stream: createReadStream(file),
    size: info.size,
    contentType: reporter.contentType,
    fileName: `${safeFileName(reportName)}-${stamp}.${reporter.format}`,
  };
}

/** A file name safe in a Content-Disposition header on every system. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'report';
}
