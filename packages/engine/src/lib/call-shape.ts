/**
 * The shape of a call's JSON body as the browser crawl saw it: its top-level keys and the type of each value, never
 * a value (a page posts passwords and tokens). A page is hostile: what it sent is parsed by `JsonShape` and kept only
 * as data. The security scan attacks such a call with a body it makes from the shape (`harmlessBody`).
 */
import { z } from 'zod';

export const JSON_VALUE_TYPES = ['string', 'number', 'boolean', 'null', 'object', 'array'] as const;
export type JsonValueType = (typeof JSON_VALUE_TYPES)[number];

/** Keys kept of one body; a body with more keeps the first ones. */
export const MAX_SHAPE_KEYS = 50;
export const MAX_KEY_CHARS = 100;
/** A body longer than this is not read (an upload, not a form's call). */
export const MAX_BODY_CHARS = 64 * 1024;

export const JsonShape = z.record(z.string().min(1).max(MAX_KEY_CHARS), z.enum(JSON_VALUE_TYPES)).refine((o) => Object.keys(o).length <= MAX_SHAPE_KEYS, 'too many keys');
export type JsonShape = z.output<typeof JsonShape>;

const typeOf = (v: unknown): JsonValueType => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as JsonValueType));

/** The shape of a request body that is a JSON object, or null (not JSON, not an object, too long, no keys). */
export function jsonShapeOf(body: string | null | undefined, contentType: string | undefined): JsonShape | null {
  if (!body || body.length > MAX_BODY_CHARS) return null;
  if (!/\bjson\b/i.test(contentType ?? '') && !/^\s*\{/.test(body)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeOf(parsed) !== 'object') return null;
  const shape: Record<string, JsonValueType> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (Object.keys(shape).length >= MAX_SHAPE_KEYS) break;
    if (key.length === 0 || key.length > MAX_KEY_CHARS) continue;
    shape[key] = typeOf(value);
  }
  const checked = JsonShape.safeParse(shape);
  return checked.success && Object.keys(checked.data).length > 0 ? checked.data : null;
}

/** Harmless values a scanner sends in place of the page's: an address at example.com, a password that is no one's. */
export const HARMLESS = { email: 'fullstop.scan@example.com', password: 'Fullstop-scan-1!', text: 'fullstop', number: 1 } as const;

/** A body of `shape`'s keys with harmless values: what the scan attacks, never what the page sent. */
export function harmlessBody(shape: JsonShape): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(shape)) {
    if (type === 'string') body[key] = /mail/i.test(key) ? HARMLESS.email : /pass(word)?|pwd/i.test(key) ? HARMLESS.password : HARMLESS.text;
    else if (type === 'number') body[key] = HARMLESS.number;
    else if (type === 'boolean') body[key] = true;
    else if (type === 'null') body[key] = null;
    else body[key] = type === 'array' ? [] : {};
  }
  return body;
}
