import { reportLinkResponse } from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';
import { openInNewTab, readerQuery } from '@/lib/open-link.ts';

/**
 * Opens a test's latest HTML report in a new tab (Tests page, dashboard home), as the Reports page does: a
 * short-lived address from POST /report/link where the server shows the report sandboxed, in an origin of its
 * own, never the portal's, with times in the reader's locale and zone.
 */
export function openHtmlReport(testName: string, apiKey: string): Promise<void> {
  return openInNewTab(async () => {
    const path = `/report/link/${encodeURIComponent(testName)}/html?${readerQuery()}`;
    return reportLinkResponse.parse(await http.request(path, { method: 'POST', auth: 'apiKey', apiKey })).url;
  });
}
