/** What a check expected and what came back, as a report shows them: short, one line each. */
export const MAX_EXPECTATION_CHARS = 300;
/** A header's or a JSON field's value, quoted inside those words. */
export const MAX_VALUE_CHARS = 120;

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The `expected` and `actual` fields of a case, each cut to MAX_EXPECTATION_CHARS. */
export function expectedActual(expected: string, actual: string): { expected: string; actual: string } {
  return { expected: clip(expected, MAX_EXPECTATION_CHARS), actual: clip(actual, MAX_EXPECTATION_CHARS) };
}

/** A value as it reads in those words: JSON for data, cut to MAX_VALUE_CHARS. */
export function shownValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  return clip(typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value)), MAX_VALUE_CHARS);
}

/** A response header as received, with a cookie's value hidden: it may be someone's session. */
export function shownHeader(name: string, value: string): string {
  const shown = name.toLowerCase() === 'set-cookie' ? value.replace(/^([^=;]*)=[^;]*/, '$1=…') : value;
  return clip(`${name}: ${shown}`, MAX_VALUE_CHARS);
}
