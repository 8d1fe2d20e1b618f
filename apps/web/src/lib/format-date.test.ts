import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatAge, formatDate, formatDay, parseDay } from './format-date.ts';

/** Every .ts/.tsx file under a folder, tests left out. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe('the one date format', () => {
  it('writes dates the spec’s en-GB way, with the time', () => {
    const at = new Date(2026, 10, 28, 21, 36, 44).toISOString();
    expect(formatDate(at)).toBe('28/11/2026, 21:36:44');
    expect(formatDate(null, '—')).toBe('—');
    expect(formatDate('soon')).toBe('soon');
  });

  it('is the only way a page writes a date: no page formats one of its own', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const own = sources(root)
      .filter((file) => !file.endsWith(path.join('lib', 'format-date.ts')))
      .filter((file) => /toLocale(Date|Time)?String\(\s*(undefined|\)|'en-US')|new Intl\.DateTimeFormat\(|type="date"|formatRunDate/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(own).toEqual([]);
  });

  it('reads and writes a day of a filter in the same order', () => {
    expect(formatDay('2026-11-23')).toBe('23/11/2026');
    expect(formatDay('')).toBe('');
    expect(parseDay('23/11/2026')).toBe('2026-11-23');
    expect(parseDay(' 3.1.26 ')).toBe('2026-01-03');
    expect(parseDay('31/02/2026')).toBeNull();
    expect(parseDay('11/23/2026')).toBeNull();
    expect(parseDay('yesterday')).toBeNull();
  });

  it('says how long ago something happened', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(formatAge('2026-11-28T11:59:30Z', now)).toBe('less than a minute');
    expect(formatAge('2026-11-28T11:15:00Z', now)).toBe('45 min');
    expect(formatAge('2026-11-27T09:00:00Z', now)).toBe('27 h');
    expect(formatAge('2026-11-25T12:00:00Z', now)).toBe('3 days');
  });
});
