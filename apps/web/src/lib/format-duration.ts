const oneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

/**
 * How long something took, in the unit a person reads best: `340 ms`, `1.2 s`, `12 s`, `2 min 5 s`, `1 h 4 min`.
 * A missing or impossible value reads as `missing`.
 */
export function formatDuration(ms: number | null | undefined, missing = ''): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return missing;
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 9.95) return `${oneDecimal.format(seconds)} s`;
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  if (total < 3600) {
    const rest = total % 60;
    return rest ? `${Math.floor(total / 60)} min ${rest} s` : `${total / 60} min`;
  }
  const minutes = Math.round(total / 60);
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}
