/**
 * What a page answered, made data: copied field by field into strings and numbers within the contract's bounds
 * (`elementFingerprint`: each string, the box, the index, the whole at most MAX_FINGERPRINT_BYTES). Anything else (a
 * getter that throws, an object of a million keys, a string of a megabyte) is no fingerprint; nothing a page says is
 * ever run or printed as code. The schema itself is not run here, in a test worker's hot path (zod's load and its
 * schemas cost a worker more than its fingerprints): the runner parses every record the workers wrote with it
 * (attempt.ts), and drops one that is not valid.
 */
import type { ElementFingerprint } from '@fullstop/contracts/healing';
import { FINGERPRINT_ATTRIBUTE_CHARS, FINGERPRINT_BOX_LIMIT, FINGERPRINT_CLASS_CHARS, FINGERPRINT_CLASSES, FINGERPRINT_TEXT_CHARS, MAX_FINGERPRINT_BYTES } from '@fullstop/contracts/healing-limits';

const ATTRIBUTES = ['name', 'type', 'placeholder', 'title', 'alt', 'href'] as const;
const NEIGHBOURS = ['previous', 'next', 'heading'] as const;

function str(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.replace(/\s+/g, ' ').trim().slice(0, max);
  return s || undefined;
}

/** A box's coordinate, within the bounds the page's own clipping keeps (in-page.ts). */
function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(-FINGERPRINT_BOX_LIMIT, Math.min(FINGERPRINT_BOX_LIMIT, value)) : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function picked<K extends string>(source: Record<string, unknown>, keys: readonly K[], max: number): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const v = str(source[key], max);
    if (v) out[key] = v;
  }
  return out;
}

/** A page's fingerprint of an element, bounded and checked; null when it is not one. */
export function fingerprintFromPage(raw: unknown): ElementFingerprint | null {
  try {
    const r = record(raw);
    const box = record(r.box);
    const [x, y, width, height] = [num(box.x), num(box.y), num(box.width), num(box.height)];
    const classes = Array.isArray(r.classes)
      ? r.classes
          .slice(0, FINGERPRINT_CLASSES)
          .map((c) => str(c, FINGERPRINT_CLASS_CHARS))
          .filter((c): c is string => Boolean(c))
      : [];
    const fingerprint: ElementFingerprint = {
      tag: str(r.tag, 24) ?? 'element',
      ...(str(r.role, 32) ? { role: str(r.role, 32) } : {}),
      ...(str(r.name, FINGERPRINT_TEXT_CHARS) ? { name: str(r.name, FINGERPRINT_TEXT_CHARS) } : {}),
      ...(str(r.text, FINGERPRINT_TEXT_CHARS) ? { text: str(r.text, FINGERPRINT_TEXT_CHARS) } : {}),
      ...(str(r.testId, FINGERPRINT_ATTRIBUTE_CHARS) ? { testId: str(r.testId, FINGERPRINT_ATTRIBUTE_CHARS) } : {}),
      ...(str(r.id, FINGERPRINT_ATTRIBUTE_CHARS) ? { id: str(r.id, FINGERPRINT_ATTRIBUTE_CHARS) } : {}),
      classes,
      attributes: picked(record(r.attributes), ATTRIBUTES, FINGERPRINT_ATTRIBUTE_CHARS),
      ...(str(r.label, FINGERPRINT_TEXT_CHARS) ? { label: str(r.label, FINGERPRINT_TEXT_CHARS) } : {}),
      neighbours: picked(record(r.neighbours), NEIGHBOURS, FINGERPRINT_ATTRIBUTE_CHARS),
      ...(x !== undefined && y !== undefined && width !== undefined && height !== undefined ? { box: { x, y, width, height } } : {}),
      index: Number.isInteger(r.index) && (r.index as number) >= 0 ? Math.min(r.index as number, 100_000) : 0,
    };
    return JSON.stringify(fingerprint).length <= MAX_FINGERPRINT_BYTES ? fingerprint : null;
  } catch {
    return null;
  }
}

/** The page's candidates (CANDIDATES_OF), each at its place in the page's list; what is not one is left out. */
export function candidatesFromPage(raw: unknown, max: number): { at: number; fingerprint: ElementFingerprint }[] {
  if (!Array.isArray(raw)) return [];
  const out: { at: number; fingerprint: ElementFingerprint }[] = [];
  for (const item of raw.slice(0, max)) {
    const r = record(item);
    const at = r.at;
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= max) continue;
    const fingerprint = fingerprintFromPage(r.fingerprint);
    if (fingerprint) out.push({ at, fingerprint });
  }
  return out;
}
