import { z } from 'zod';

/**
 * NUL, and UTF-16 surrogates without their pair. PostgreSQL refuses a NUL in text (the request would end in a
 * 500) and stores a lone surrogate as U+FFFD (silently changing what was sent), so neither is ever accepted.
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasUnsafeText(value: string): boolean {
  return UNSAFE_TEXT.test(value);
}

/** The refinement every text field carries; usable on z.url(), z.email() and the like. */
export function safeTextCheck(field: string) {
  return [
    (value: string) => !hasUnsafeText(value),
    { error: `${field} must not contain NUL bytes or unpaired surrogates` },
  ] as const;
}

/**
 * Every text field of every request: a string that names its field when it is missing, of the wrong type or
 * holds a NUL byte or a lone surrogate. Add length rules as usual: `text('title').trim().min(3).max(200)`.
 */
export function text(field: string) {
  return z.string({ error: `${field} must be a string` }).refine(...safeTextCheck(field));
}

/** The earliest and latest dates any request may name; outside them a date is a typo or a probe. */
export const MIN_DATE = Date.UTC(2000, 0, 1);
export const MAX_DATE = Date.UTC(2100, 0, 1);

/** An ISO 8601 date-time (UTC `Z` or an offset) between 2000 and 2100. */
export function isoDateTime(field: string) {
  return z.iso
    .datetime({ offset: true, error: `${field} must be an ISO date-time such as 2025-01-31T12:00:00Z` })
    .refine(
      (value) => {
        const t = Date.parse(value);
        return Number.isFinite(t) && t >= MIN_DATE && t < MAX_DATE;
      },
      { error: `${field} must be between 2000 and 2100` },
    );
}
