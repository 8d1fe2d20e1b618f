import { type ReportEntry, reportLinkResponse } from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';
import { downloadFrom, openInNewTab, readerQuery } from '@/lib/open-link.ts';

/** Formats the browser saves under the server's file name (`fullstop-marketing-pages-2026-11-22.zip`). */
const DOWNLOADED_FORMATS = new Set(['zip', 'xml', 'pdf']);

/** json, html, and any format the spec does not name (it treats those as html) open in a tab of their own. */
export function opensInTab(format: string): boolean {
  return !DOWNLOADED_FORMATS.has(format.toLowerCase());
}

export interface ReportFormatRow {
  format: string;
  lastUpdated: string | undefined;
}

/** A report lists its formats; an older entry with only lastUpdated is one HTML report. */
export function reportFormats(entry: ReportEntry): ReportFormatRow[] {
  if (entry.formats && entry.formats.length > 0) return entry.formats;
  return [{ format: 'html', lastUpdated: entry.lastUpdated }];
}

export function lastUpdated(entry: ReportEntry): string | undefined {
  const times = [entry.lastUpdated, ...(entry.formats ?? []).map((f) => f.lastUpdated)].filter((t): t is string => Boolean(t));
  return times.sort((a, b) => Date.parse(b) - Date.parse(a))[0];
}


/** A short-lived address of the server that shows (html, json) or downloads (zip, xml, pdf) one report. */
async function reportLink(reportName: string, format: string, apiKey: string): Promise<string> {
  const path = `/report/link/${encodeURIComponent(reportName)}/${encodeURIComponent(format)}?${readerQuery()}`;
  return reportLinkResponse.parse(await http.request(path, { method: 'POST', auth: 'apiKey', apiKey })).url;
}

/**
 * Opens a report. html and json open in a new tab at a short-lived address of the server, which serves them
 * sandboxed (a blob: URL would share the portal's origin, and a script planted in a report could then read the
 * portal's storage). The tab opens at the click, before the link is fetched, so the popup blocker sees the
 * user's own action. zip, xml and pdf are downloads: a hidden link to the same kind of address, which the
 * server answers as an attachment with the report's name, so no tab opens and none is left blank.
 */
export async function openReport(reportName: string, format: string, apiKey: string): Promise<void> {
  if (opensInTab(format)) return openInNewTab(() => reportLink(reportName, format, apiKey));
  downloadFrom(await reportLink(reportName, format, apiKey));
}
