/**
 * From a region of a page that changed between two visits to a CSS selector that masks it (changing-elements.ts):
 * the smallest visible element that holds the change, named the way a person would name it and that holds from
 * visit to visit: its test id (`[data-testid="visits"]`), its id (`#clock`), a class of its own (`.published-ago`),
 * else within the nearest ancestor so named (`.post-meta time`), and only then by its place (`#feed > li:nth-of-type(2)`).
 * Ids and classes that look generated (a hash, a counter: `css-1x2y3z`, `item-1234`) or that say a state
 * (`active`, `is-open`: a carousel's current slide moves) are never used.
 *
 * Elements are read in the page's own world (`ELEMENTS_SCRIPT`): a hostile page may answer anything, so the answer is
 * parsed here (`parseElements`), bounded, and every selector is built here from checked names only.
 */
import type { VisualRegion } from '@fullstop/contracts';
import { z } from 'zod';

/** Elements read of a page at most (document order: the first ones). */
export const MAX_ELEMENTS = 5_000;
/** A selector that matches more elements than this masks too much to say anything (every `.card` of a grid). */
export const MAX_MATCHES = 20;
/** A mask may cover at most this share of the page: past it, the page itself is what changes. */
export const MAX_MASK_SHARE = 1 / 3;
/** An ancestor named by a class of its own is taken over a smaller element named by its place when at most this many times larger. */
const OWN_NAME_WORTH = 4;
/** Boxes are compared with this slack (px): text re-rasterised, a box rounded. */
const SLACK_PX = 2;

/** The attributes that carry a test id, in the order tried. */
export const TEST_ATTRIBUTES = ['data-testid', 'data-test-id', 'data-test', 'data-cy', 'data-qa'] as const;

const coordinate = z.number().finite().min(-1e6).max(1e6);
/** One element as the page describes it: its parent's index (-1: none), tag, id, test id, classes and box in the document. */
const PageElement = z
  .object({
    p: z.number().int().min(-1),
    t: z.string().min(1).max(40),
    id: z.string().max(100),
    ta: z.number().int().min(-1).max(TEST_ATTRIBUTES.length - 1),
    tv: z.string().max(100),
    c: z.array(z.string().max(60)).max(10),
    x: coordinate,
    y: coordinate,
    w: coordinate.min(0),
    h: coordinate.min(0),
    /** Rendered and not hidden (visibility, display, opacity). */
    v: z.boolean(),
  })
  .strict();
export type PageElement = z.infer<typeof PageElement>;
const PageElements = z.array(PageElement).max(MAX_ELEMENTS);

/**
 * Run in the page (a function's source: the engine compiles without the DOM's types): the body and its elements in
 * document order, each with its parent's index and its box in document coordinates.
 */
export const ELEMENTS_SCRIPT = `(args) => {
  const [max, attrs] = args;
  const out = [];
  const root = document.body;
  if (!root) return out;
  const index = new Map();
  const sx = window.scrollX, sy = window.scrollY;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let el = root; el && out.length < max; el = walker.nextNode()) {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    let ta = -1, tv = '';
    for (let i = 0; i < attrs.length; i++) { const v = el.getAttribute(attrs[i]); if (v) { ta = i; tv = v.slice(0, 100); break; } }
    const p = index.get(el.parentElement);
    index.set(el, out.length);
    out.push({ p: p === undefined ? -1 : p, t: String(el.localName).slice(0, 40), id: (el.getAttribute('id') || '').slice(0, 100), ta, tv,
      c: Array.from(el.classList).slice(0, 10).map((c) => c.slice(0, 60)),
      x: r.left + sx, y: r.top + sy, w: r.width, h: r.height,
      v: r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0' });
  }
  return out;
}`;
export const ELEMENTS_SCRIPT_ARGS = [MAX_ELEMENTS, TEST_ATTRIBUTES] as const;

/** The page's answer as elements, or null when it is not that (the page answered something else). */
export function parseElements(value: unknown): PageElement[] | null {
  if (Array.isArray(value) && value.length > MAX_ELEMENTS) return null;
  const parsed = PageElements.safeParse(value);
  if (!parsed.success) return null;
  // A parent comes before its child in document order; an index that says otherwise is no parent.
  return parsed.data.map((e, i) => (e.p < i ? e : { ...e, p: -1 }));
}

/** An element named by itself: tag, id, classes, test attribute (each optional, at least one). */
interface Simple {
  tag?: string;
  id?: string;
  classes?: string[];
  attr?: { name: string; value: string };
}
/** A selector: an element named by itself, inside an ancestor (or its parent) so named, or by its place among its siblings. */
export interface Descriptor {
  self: Simple;
  within?: Simple;
  child?: boolean;
  nth?: number;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** A run of digits (a counter, a date), or a part of letters and digits mixed (a hash: `css-1x2y3z`, `Button_root__a1B2c`). */
const GENERATED = /\d{3,}|(?:^|[-_])(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{5,}(?:$|[-_])/;
/** Classes that say a state, which changes between visits (a carousel's current slide). */
const STATE = /^(?:is|has)[-_]|^(?:active|current|selected|show|showing|shown|open|opened|visible|hidden|in|fade|focus|focused|hover|collapsed|collapsing|expanded|loading|loaded|disabled|enabled|checked|animated|animating)$/i;

/** A name of the page's that a selector may use: a plain identifier, not generated, not a state. */
export const isStableName = (name: string): boolean => name.length <= 60 && IDENT.test(name) && !GENERATED.test(name) && !STATE.test(name);
/** A test id's value written in a selector: printable ASCII, at most 80 characters. */
const isStableValue = (value: string): boolean => value.length > 0 && value.length <= 80 && /^[\x20-\x7e]+$/.test(value) && !/\d{4,}/.test(value);

function simpleCss(s: Simple): string {
  const attr = s.attr ? `[${s.attr.name}="${s.attr.value.replace(/["\\]/g, (c) => `\\${c}`)}"]` : '';
  return `${s.tag ?? ''}${s.id ? `#${s.id}` : ''}${(s.classes ?? []).map((c) => `.${c}`).join('')}${attr}`;
}

/** A descriptor as CSS: `.meta time`, `#feed > li:nth-of-type(2)`. */
export function cssOf(d: Descriptor): string {
  const self = `${simpleCss(d.self)}${d.nth ? `:nth-of-type(${d.nth})` : ''}`;
  return d.within ? `${simpleCss(d.within)}${d.child ? ' > ' : ' '}${self}` : self;
}

/** Box helpers: an element's, a union of two, and whether one holds a region (with SLACK_PX). */
type Box = { x: number; y: number; w: number; h: number };
const boxOf = (e: PageElement): Box => ({ x: e.x, y: e.y, w: e.w, h: e.h });
function unionBox(a: Box | undefined, b: Box | undefined): Box | undefined {
  if (!a || !b) return a ?? b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}
const holds = (b: Box, r: VisualRegion) => b.x - SLACK_PX <= r.x && b.y - SLACK_PX <= r.y && b.x + b.w + SLACK_PX >= r.x + r.width && b.y + b.h + SLACK_PX >= r.y + r.height;
const meets = (b: Box, r: VisualRegion) => b.x - SLACK_PX < r.x + r.width && b.y - SLACK_PX < r.y + r.height && b.x + b.w + SLACK_PX > r.x && b.y + b.h + SLACK_PX > r.y;
const areaOf = (b: Box) => b.w * b.h;

/** One visit's elements, indexed for matching selectors. */
export class Snapshot {
  readonly elements: readonly PageElement[];
  private readonly nthOfType: number[];
  private readonly matched = new Map<string, number[]>();

  constructor(elements: readonly PageElement[]) {
    this.elements = elements;
    // Each element's place among its parent's children of its tag (1 first), in document order.
    const counts = new Map<string, number>();
    this.nthOfType = elements.map((e) => {
      const key = `${e.p} ${e.t}`;
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return n;
    });
  }

  private simpleMatches(i: number, s: Simple): boolean {
    const e = this.elements[i]!;
    if (s.tag && e.t !== s.tag) return false;
    if (s.id && e.id !== s.id) return false;
    if (s.classes && !s.classes.every((c) => e.c.includes(c))) return false;
    if (s.attr && (e.ta < 0 || TEST_ATTRIBUTES[e.ta] !== s.attr.name || e.tv !== s.attr.value)) return false;
    return true;
  }

  /** The indices of the elements `d` matches, in document order. */
  matches(d: Descriptor): number[] {
    const key = cssOf(d);
    let out = this.matched.get(key);
    if (!out) {
      out = this.match(d);
      this.matched.set(key, out);
    }
    return out;
  }

  private match(d: Descriptor): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.elements.length; i++) {
      if (!this.simpleMatches(i, d.self)) continue;
      if (d.nth && this.nthOfType[i] !== d.nth) continue;
      if (d.within) {
        const within = d.within;
        let p = this.elements[i]!.p;
        let found = false;
        while (p >= 0 && !found) {
          found = this.simpleMatches(p, within);
          if (d.child) break;
          p = this.elements[p]!.p;
        }
        if (!found) continue;
      }
      out.push(i);
    }
    return out;
  }

  /** Whether `ancestor` is `i` or one of its ancestors. */
  isWithin(i: number, ancestor: number): boolean {
    for (let p = i; p >= 0; p = this.elements[p]!.p) if (p === ancestor) return true;
    return false;
  }

  /** The page's area as its elements say it (the body's box and every element's extent). */
  pageArea(): number {
    let w = 1;
    let h = 1;
    for (const e of this.elements) {
      w = Math.max(w, e.x + e.w);
      h = Math.max(h, e.y + e.h);
    }
    return w * h;
  }

  nth(i: number): number {
    return this.nthOfType[i]!;
  }
}

/** Tags that say what an element is, so that the page's only one is named by it (`time`); never `div` or `span`. */
const TAGS_THAT_NAME = new Set(['time', 'canvas', 'video', 'audio', 'iframe', 'progress', 'meter', 'output', 'marquee', 'picture']);

/** The ways an element may be named by itself, best first. */
function ownNames(e: PageElement): Descriptor[] {
  const out: Descriptor[] = [];
  if (e.ta >= 0 && isStableValue(e.tv)) out.push({ self: { attr: { name: TEST_ATTRIBUTES[e.ta]!, value: e.tv } } });
  if (e.id && isStableName(e.id)) out.push({ self: { id: e.id } });
  const classes = e.c.filter(isStableName);
  for (const c of classes) out.push({ self: { classes: [c] } });
  for (let i = 0; i < Math.min(classes.length, 4); i++) for (let j = i + 1; j < Math.min(classes.length, 4); j++) out.push({ self: { classes: [classes[i]!, classes[j]!] } });
  if (IDENT.test(e.t)) {
    for (const c of classes) out.push({ self: { tag: e.t, classes: [c] } });
    if (TAGS_THAT_NAME.has(e.t)) out.push({ self: { tag: e.t } });
  }
  return out;
}

/** The ways an element may be named within its nearest ancestor that is named by itself, best first. */
function scopedNames(snap: Snapshot, i: number, accepted: (d: Descriptor) => boolean): Descriptor[] {
  const e = snap.elements[i]!;
  if (!IDENT.test(e.t)) return [];
  for (let p = e.p, depth = 0; p >= 0 && depth < 30; p = snap.elements[p]!.p, depth++) {
    // The ancestor's own name must single it out (or nearly): "within .card" of a grid of cards names nothing.
    const anchor = ownNames(snap.elements[p]!).find((d) => d.self.tag === undefined && snap.matches(d).length <= 3 && accepted({ self: d.self }));
    if (!anchor) continue;
    const within = anchor.self;
    const classes = e.c.filter(isStableName);
    const out: Descriptor[] = [...classes.map((c) => ({ self: { tag: e.t, classes: [c] }, within })), { self: { tag: e.t }, within }];
    if (p === e.p) out.push({ self: { tag: e.t }, within, child: true, nth: snap.nth(i) });
    return out;
  }
  return [];
}

export interface MaskChoice {
  selector: string;
  descriptor: Descriptor;
}

/**
 * The selector that masks `region` (a change between the visits `a` and `b`, or within `a` alone when `b` is null):
 * the smallest element of either visit that holds it, named by itself where it can be, else within a named ancestor,
 * else by its place; null when no element smaller than MAX_MASK_SHARE of the page holds it.
 *
 * A selector holds a region when one of its elements does, in the first visit or the second (the k-th match in
 * each: the same element, its box in either); it must match at most MAX_MATCHES elements, covering at most
 * MAX_MASK_SHARE of the page in each visit.
 */
export function maskFor(region: VisualRegion, a: Snapshot, b: Snapshot | null): MaskChoice | null {
  const limit = MAX_MASK_SHARE * Math.max(a.pageArea(), b?.pageArea() ?? 0);
  const covered = (snap: Snapshot, list: number[]) => list.reduce((sum, i) => sum + (snap.elements[i]!.v ? areaOf(boxOf(snap.elements[i]!)) : 0), 0);
  const cache = new Map<string, boolean>();
  /**
   * Whether `d` masks the region. `once`: it may match in one visit only (an element one visit has and the other has
   * not), tried only when no name both visits share holds it: a name only one visit has (a theme's random class)
   * would not hold in the next run.
   */
  const check = (d: Descriptor, once: boolean): boolean => {
    const key = `${once ? 'once ' : ''}${cssOf(d)}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const inA = a.matches(d);
    const inB = b ? b.matches(d) : [];
    // A tag alone names an element only when the page has one of them (its `time`, its `canvas`: TAGS_THAT_NAME).
    const most = d.within || d.self.id || d.self.classes || d.self.attr ? MAX_MATCHES : 1;
    const found = once ? inA.length + inB.length > 0 : inA.length > 0 && (!b || inB.length > 0);
    let ok = found && inA.length <= most && inB.length <= most && covered(a, inA) <= limit && (!b || covered(b, inB) <= limit);
    if (ok) {
      let holding = false;
      for (let k = 0; k < Math.max(inA.length, inB.length) && !holding; k++) {
        const ea = inA[k] !== undefined ? a.elements[inA[k]!] : undefined;
        const eb = b && inB[k] !== undefined ? b.elements[inB[k]!] : undefined;
        const box = unionBox(ea?.v ? boxOf(ea) : undefined, eb?.v ? boxOf(eb) : undefined);
        holding = !!box && holds(box, region);
      }
      ok = holding;
    }
    cache.set(key, ok);
    return ok;
  };
  const accepted = (d: Descriptor) => a.matches(d).length > 0 && (!b || b.matches(d).length > 0);

  // The elements of either visit that meet the region (one may be there in one visit only), smallest first: the
  // first that holds it wins.
  const candidates = [a, ...(b ? [b] : [])]
    .flatMap((snap) => snap.elements.map((e, i) => ({ snap, e, i, area: areaOf(boxOf(e)) })))
    .filter(({ e, area }) => e.v && area <= limit && meets(boxOf(e), region))
    .sort((x, y) => x.area - y.area);
  const choose = (d: Descriptor): MaskChoice => ({ selector: cssOf(d), descriptor: d });
  for (const once of [false, true]) {
    for (const [n, { snap, e, i, area }] of candidates.entries()) {
      for (const d of ownNames(e)) if (check(d, once)) return choose(d);
      for (const d of scopedNames(snap, i, accepted)) {
        if (!check(d, once)) continue;
        // A little larger ancestor named by itself reads better than this element named by its place.
        for (const { snap: s, e: up, i: j } of candidates.slice(n + 1)) {
          if (areaOf(boxOf(up)) > OWN_NAME_WORTH * Math.max(area, 1)) break;
          if (s !== snap || !snap.isWithin(i, j)) continue;
          for (const own of ownNames(up)) if (check(own, once)) return choose(own);
        }
        return choose(d);
      }
    }
  }
  return null;
}

/**
 * The masks worth keeping: one whose every visible element lies inside another mask's visible element (a date
 * inside the line that holds it) paints nothing more, and goes. Boxes, not the document's tree: a child may be
 * drawn outside its parent.
 */
export function withoutNested(choices: readonly MaskChoice[], snap: Snapshot): MaskChoice[] {
  const visibleBoxes = (c: MaskChoice) => snap.matches(c.descriptor).flatMap((i) => (snap.elements[i]!.v ? [boxOf(snap.elements[i]!)] : []));
  const boxes = choices.map(visibleBoxes);
  const inside = (inner: Box, outer: Box) => holds(outer, { x: inner.x, y: inner.y, width: inner.w, height: inner.h });
  return choices.filter((c, n) => {
    const own = boxes[n]!;
    if (own.length === 0) return true;
    // Of two masks that paint the same boxes, the first is kept.
    return !choices.some((other, m) => m !== n && other.selector !== c.selector && own.every((b) => boxes[m]!.some((o) => inside(b, o))) && !(m > n && boxes[m]!.every((b) => own.some((o) => inside(b, o)))));
  });
}
