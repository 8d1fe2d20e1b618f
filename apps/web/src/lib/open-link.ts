/**
 * Opens an address fetched after the click in a new tab. The tab opens at the click, so the browser's popup
 * blocker sees the user's own action, and it is cut from this page (no opener) before it loads anything; it
 * closes again when the address cannot be had.
 */
export async function openInNewTab(fetchUrl: () => Promise<string>): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const url = await fetchUrl();
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.open(url, '_blank', 'noopener');
    }
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/** Saves what `url` answers as an attachment, under the name the server gives it, without opening a tab. */
export function downloadFrom(url: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = '';
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/** The reader's locale and time zone as a query string, so a report's times read as the reader's own. */
export function readerQuery(): string {
  const { locale, timeZone } = Intl.DateTimeFormat().resolvedOptions();
  return new URLSearchParams({ locale, timeZone }).toString();
}
