/**
 * An uploaded app file the engine refuses to read further: not a readable archive, a manifest that breaks the
 * format's rules, or something that would inflate past a limit. The message says what is wrong, in words a
 * client can act on; `code` lets the server answer 413 for sizes and 415 for everything else.
 */
export class AppFileError extends Error {
  readonly code: 'app_malformed' | 'app_too_large' | 'app_missing';

  constructor(code: AppFileError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppFileError';
    this.code = code;
  }
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
