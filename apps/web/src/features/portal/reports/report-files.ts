import { type ReportEntry, reportLinkResponse } from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';

/** Spec section 3: json and zip have their own types; every other format opens as HTML. */
export function reportMimeType(format: string): string {
  const lower = format.toLowerCase();
  if (lower === 'json') return 'application/json';
  if (lower === 'zip') return 'application/zip';
  return 'text/html';
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

export function formatWhen(value: string | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString('en-GB');
}

/** json and zip open from a blob, as the spec says; anything shown as a page opens from the server (below). */
export function opensAsPage(format: string): boolean {
  return reportMimeType(format) === 'text/html';
}

/**
 * Shows a report in a new tab. The tab opens at the click, before any download, so the browser's popup blocker
 * sees it as the user's own action. A page (html, and any other format a browser would render as one) opens at
 * a short-lived address of the server, which serves it sandboxed: a blob: URL would share the portal's origin,
 * and a script planted in a report could then read the portal's storage, where the tokens are.
 */
export async function openReport(reportName: string, format: string, apiKey: string): Promise<void> {
  const tab = window.open('', '_blank');
  const path = `${encodeURIComponent(reportName)}/${encodeURIComponent(format)}`;
  try {
    if (opensAsPage(format)) {
      const { url } = reportLinkResponse.parse(await http.request(`/report/link/${path}`, { method: 'POST', auth: 'apiKey', apiKey }));
      if (tab) {
        tab.opener = null;
        tab.location.href = url;
      } else {
        window.open(url, '_blank', 'noopener');
      }
      return;
    }
    const blob = await http.request<Blob>(`/report/fetch/${path}`, { auth: 'apiKey', apiKey, responseType: 'blob' });
    const url = URL.createObjectURL(new Blob([blob], { type: reportMimeType(format) }));
    if (tab) tab.location.href = url;
    else window.open(url, '_blank');
    // The tab has loaded it long before this; freeing it sooner would blank a slow tab.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}
