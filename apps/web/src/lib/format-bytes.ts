const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** Bytes for people: 5.4 MB rather than 5,400,000 (decimal units, as network tools and file managers count). */
export function formatBytes(value: number): string {
  let unit = 0;
  let scaled = value;
  while (Math.abs(scaled) >= 1000 && unit < BYTE_UNITS.length - 1) {
    scaled /= 1000;
    unit++;
  }
  return `${Number(scaled.toFixed(1))} ${BYTE_UNITS[unit]}`;
}
