/** How long a saved file's address stays valid: long enough for the browser to finish writing a large file. */
const REVOKE_AFTER_MS = 60_000;

/** Hands a fetched file to the browser as a download under `name`, without opening a tab. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
