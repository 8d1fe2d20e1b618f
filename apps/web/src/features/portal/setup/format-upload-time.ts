/** Spec section 9: dates on the setup page in en-GB format, e.g. "22/11/2026, 07:51:49". */
export function formatUploadTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString('en-GB');
}
