/** Text and attribute values from runners and targets (page titles, evidence, error messages) are hostile. */
export function escapeHtml(s: unknown): string {
  return String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Only http(s) links leave a report, as text links that send no referrer. */
export function safeLink(url: string | undefined, text: string): string {
  if (!url || !/^https?:\/\//i.test(url)) return escapeHtml(text);
  return `<a href="${escapeHtml(url)}" rel="noreferrer noopener" target="_blank">${escapeHtml(text)}</a>`;
}
