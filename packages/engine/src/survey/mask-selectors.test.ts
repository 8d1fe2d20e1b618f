import { describe, expect, it } from 'vitest';
import { isStableName, maskFor, MAX_ELEMENTS, type PageElement, parseElements, Snapshot, withoutNested } from './mask-selectors.ts';

/** An element of a made-up page: tag, box [x, y, w, h], and what names it. */
interface Node {
  t: string;
  box: [number, number, number, number];
  id?: string;
  c?: string[];
  testid?: string;
  hidden?: boolean;
  kids?: Node[];
}

/** The page as the in-page script answers it: document order, each with its parent's index. */
function snapshot(root: Node): Snapshot {
  const out: PageElement[] = [];
  const walk = (n: Node, p: number) => {
    const [x, y, w, h] = n.box;
    const i = out.length;
    out.push({ p, t: n.t, id: n.id ?? '', ta: n.testid ? 0 : -1, tv: n.testid ?? '', c: n.c ?? [], x, y, w, h, v: !n.hidden });
    for (const k of n.kids ?? []) walk(k, i);
  };
  walk(root, -1);
  return new Snapshot(parseElements(out)!);
}

/** A blog page: a header, an article whose meta line says when it was published, a visit counter, a footer. */
const blog = (over: { ago?: Partial<Node>; counter?: Partial<Node>; meta?: Partial<Node> } = {}): Node => ({
  t: 'body',
  box: [0, 0, 1280, 1200],
  kids: [
    { t: 'header', box: [0, 0, 1280, 80], c: ['site-header'], kids: [{ t: 'h1', box: [40, 20, 300, 40] }] },
    {
      t: 'main',
      box: [0, 80, 1280, 1000],
      kids: [
        {
          t: 'article',
          box: [40, 100, 800, 600],
          id: 'post',
          kids: [
            { t: 'h2', box: [40, 100, 800, 40] },
            { t: 'p', box: [40, 150, 800, 24], c: ['meta'], ...over.meta, kids: [{ t: 'span', box: [40, 150, 180, 24], c: ['published-ago'], ...over.ago }] },
            { t: 'p', box: [40, 190, 800, 400] },
          ],
        },
        { t: 'p', box: [900, 100, 300, 24], kids: [{ t: 'span', box: [960, 100, 60, 24], id: 'visits', c: ['count'], testid: 'visits', ...over.counter }] },
      ],
    },
    { t: 'footer', box: [0, 1080, 1280, 120] },
  ],
});

describe('a mask for what changed between two visits', () => {
  it('names the element that holds the change by its own class, test id or id', () => {
    const a = snapshot(blog());
    // "3 minutes ago" became "12 seconds ago": the change lies within the span.
    expect(maskFor({ x: 120, y: 152, width: 90, height: 18 }, a, snapshot(blog()))?.selector).toBe('.published-ago');
    expect(maskFor({ x: 964, y: 104, width: 30, height: 16 }, a, snapshot(blog()))?.selector).toBe('[data-testid="visits"]');
    const noTestId = blog({ counter: { testid: undefined } });
    expect(maskFor({ x: 964, y: 104, width: 30, height: 16 }, snapshot(noTestId), snapshot(noTestId))?.selector).toBe('#visits');
  });

  it('holds a change wider than the element was in one visit: its box in either visit counts', () => {
    // The date got longer: in the second visit its span is 260 px wide, and the change reaches x = 290.
    const longer = snapshot(blog({ ago: { box: [40, 150, 260, 24] } }));
    expect(maskFor({ x: 120, y: 152, width: 170, height: 18 }, snapshot(blog()), longer)?.selector).toBe('.published-ago');
  });

  it('never names an element by a generated or state class, nor by one the other visit does not have', () => {
    const generated = blog({ ago: { c: ['css-1x2y3z', 'active'] }, meta: { c: ['meta'] } });
    // The span has no name of its own, and the named line around it is more than four times larger (800 × 24 against
    // 180 × 24): the span is named within it.
    expect(maskFor({ x: 120, y: 152, width: 90, height: 18 }, snapshot(generated), snapshot(generated))?.selector).toBe('.meta span');
    // A class only the first visit has (a random theme) is no name: the line that holds it is.
    const other = blog({ ago: { c: ['theme-red'] } });
    const choice = maskFor({ x: 120, y: 152, width: 90, height: 18 }, snapshot(blog({ ago: { c: ['theme-blue'] } })), snapshot(other));
    expect(choice?.selector).toBe('.meta span');
    for (const name of ['css-1x2y3z', 'sc-bdVaJa1', 'Button_root__a1B2c', 'item-1234', 'active', 'is-open', ':r1:', 'a b', 'x'.repeat(61)]) expect(isStableName(name), name).toBe(false);
    for (const name of ['published-ago', 'post-meta', 'MuiAvatar-root', 'h1-title', 'col-md-6', 'card']) expect(isStableName(name), name).toBe(true);
  });

  it('takes an ancestor named by itself over the element named by its place when it is not much larger', () => {
    // A counter's digits in an unnamed span, in a small named badge.
    const page = snapshot({
      t: 'body',
      box: [0, 0, 1280, 800],
      kids: [{ t: 'div', box: [1000, 20, 80, 30], c: ['badge'], kids: [{ t: 'span', box: [1010, 25, 40, 20] }] }],
    });
    expect(maskFor({ x: 1012, y: 27, width: 20, height: 14 }, page, page)?.selector).toBe('.badge');
    // A tag that says what it is names the page's only one; a span or a div never.
    const time = snapshot({ t: 'body', box: [0, 0, 1280, 800], kids: [{ t: 'p', box: [0, 0, 1280, 30], kids: [{ t: 'time', box: [10, 5, 100, 20] }] }] });
    expect(maskFor({ x: 12, y: 7, width: 50, height: 14 }, time, time)?.selector).toBe('time');
  });

  it('names a slide by its place only when nothing else singles it out', () => {
    const slides = (n: number): Node => ({
      t: 'body',
      box: [0, 0, 1280, 2000],
      kids: [{ t: 'ul', box: [0, 0, 1280, 1800], id: 'slides', kids: Array.from({ length: n }, (_, i) => ({ t: 'li', box: [0, i * 60, 1280, 60] as [number, number, number, number] })) }],
    });
    // Two slides: "#slides li" masks both, a name rather than a place.
    expect(maskFor({ x: 10, y: 70, width: 100, height: 40 }, snapshot(slides(2)), snapshot(slides(2)))?.selector).toBe('#slides li');
    // Twenty-five: that would mask too many; the second is named by its place.
    expect(maskFor({ x: 10, y: 70, width: 100, height: 40 }, snapshot(slides(25)), snapshot(slides(25)))?.selector).toBe('#slides > li:nth-of-type(2)');
  });

  it('masks an element the second visit has and the first has not (a badge shown now and then)', () => {
    const withBadge = blog({ counter: { testid: undefined, id: undefined, c: ['count'], kids: [{ t: 'b', box: [1030, 100, 60, 24], c: ['new-badge'] }] } });
    const withoutBadge = blog({ counter: { testid: undefined, id: undefined, c: ['count'] } });
    expect(maskFor({ x: 1032, y: 102, width: 50, height: 20 }, snapshot(withoutBadge), snapshot(withBadge))?.selector).toBe('.new-badge');
  });

  it('finds no mask when only an element of a third of the page or more holds the change', () => {
    const a = snapshot(blog());
    expect(maskFor({ x: 10, y: 90, width: 1200, height: 900 }, a, snapshot(blog()))).toBeNull();
    // Nothing visible holds it.
    const hidden = snapshot(blog({ counter: { hidden: true } }));
    expect(maskFor({ x: 964, y: 104, width: 30, height: 16 }, hidden, hidden)?.selector).not.toBe('[data-testid="visits"]');
  });

  it('keeps the outer of two masks that paint the same place', () => {
    const a = snapshot(blog());
    const inner = maskFor({ x: 120, y: 152, width: 90, height: 18 }, a, a)!;
    const outer = maskFor({ x: 120, y: 152, width: 600, height: 18 }, a, a)!;
    expect(outer.selector).toBe('.meta');
    const counter = maskFor({ x: 964, y: 104, width: 30, height: 16 }, a, a)!;
    expect(withoutNested([inner, counter, outer], a).map((c) => c.selector)).toEqual(['[data-testid="visits"]', '.meta']);
  });
});

describe('what the page says of its elements', () => {
  const element = { p: -1, t: 'div', id: '', ta: -1, tv: '', c: [], x: 0, y: 0, w: 10, h: 10, v: true };

  it('is parsed and bounded: anything else is no answer', () => {
    expect(parseElements([element])).toEqual([element]);
    for (const hostile of [null, 'x', {}, [{ ...element, t: 'x'.repeat(41) }], [{ ...element, x: Number.NaN }], [{ ...element, c: ['a'.repeat(61)] }], [{ ...element, extra: 1 }], [{ ...element, ta: 9 }], Array(MAX_ELEMENTS + 1).fill(element)]) {
      expect(parseElements(hostile)).toBeNull();
    }
  });

  it('takes no parent that comes after its child', () => {
    expect(parseElements([{ ...element, p: 1 }, { ...element, p: 0 }])!.map((e) => e.p)).toEqual([-1, 0]);
  });

  it('writes a test id with quotes escaped, so the selector says what the page said', () => {
    const page = snapshot({ t: 'body', box: [0, 0, 1280, 800], kids: [{ t: 'b', box: [10, 10, 40, 20], testid: 'say "hi"' }] });
    expect(maskFor({ x: 12, y: 12, width: 20, height: 10 }, page, page)?.selector).toBe('[data-testid="say \\"hi\\""]');
  });
});
