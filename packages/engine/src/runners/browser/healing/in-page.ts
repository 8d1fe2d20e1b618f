/**
 * What runs in a client's page to fingerprint an element and to list the candidates of a heal. Sources as strings,
 * not functions: the server's bundle keeps names (esbuild's `__name` helper would be called in a page that has
 * none), and nothing of the engine may leak into the page. A page can lie to these or throw: what they answer is
 * clipped here and parsed with the contract's schema in Node before anything uses it (ingest.ts).
 */
import { FINGERPRINT_ATTRIBUTE_CHARS, FINGERPRINT_CLASS_CHARS, FINGERPRINT_CLASSES, FINGERPRINT_TEXT_CHARS } from '@fullstop/contracts/healing-limits';

/** The elements a heal weighs: what a spec acts on or reads. */
export const CANDIDATE_SELECTOR =
  'a,button,input,select,textarea,summary,label,option,[role],[data-testid],[tabindex],[contenteditable],[onclick],h1,h2,h3,h4,h5,h6,img,li,td,th,p,span';
/** Candidates read at most (the first ones in document order). */
export const MAX_CANDIDATES = 2000;

export interface PageLimits {
  text: number;
  attribute: number;
  classes: number;
  classChars: number;
}
export const PAGE_LIMITS: PageLimits = { text: FINGERPRINT_TEXT_CHARS, attribute: FINGERPRINT_ATTRIBUTE_CHARS, classes: FINGERPRINT_CLASSES, classChars: FINGERPRINT_CLASS_CHARS };

/** `describe(el, L)`: the fingerprint of one element, its strings clipped to the limits L. */
const DESCRIBE = String.raw`
function describe(el, L) {
  // Cut before the whitespace is folded: a page's 5 MB of text would cost seconds of its renderer each time.
  const norm = (s, n) => { const t = String(s == null ? '' : s).slice(0, 16 * n + 256).replace(/\s+/g, ' ').trim(); return t.length > n ? t.slice(0, n) : t; };
  const opt = (s, n) => { const t = norm(s, n); return t ? t : undefined; };
  const attr = (n) => { const v = el.getAttribute(n); return v == null ? undefined : opt(v, L.attribute); };
  const textOf = (n, max) => (n ? opt(n.textContent, max) : undefined);
  const tag = String(el.tagName || '').toLowerCase().slice(0, 24) || 'element';
  const type = (el.getAttribute('type') || '').toLowerCase();
  const implicitRole = () => {
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : undefined;
    if (tag === 'input') {
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'checkbox' || type === 'radio') return type;
      if (type === 'range') return 'slider';
      if (type === 'number') return 'spinbutton';
      if (type === 'search') return 'searchbox';
      if (['', 'text', 'email', 'tel', 'url', 'password'].includes(type)) return 'textbox';
      return undefined;
    }
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    if (tag === 'option') return 'option';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'img') return el.getAttribute('alt') === '' ? undefined : 'img';
    if (tag === 'li') return 'listitem';
    if (tag === 'p') return 'paragraph';
    return undefined;
  };
  const role = opt((el.getAttribute('role') || '').split(' ')[0], 32) || implicitRole();
  const byIds = (ids) => opt((ids || '').split(/\s+/).filter(Boolean).slice(0, 4).map((id) => { const n = document.getElementById(id); return n ? n.textContent : ''; }).join(' '), L.text);
  let label = byIds(el.getAttribute('aria-labelledby'));
  if (!label && el.labels && el.labels.length > 0) label = textOf(el.labels[0], L.text);
  if (!label && el.closest) { const around = el.closest('label'); if (around && around !== el) label = textOf(around, L.text); }
  const text = textOf(el, L.text);
  const named = role === 'button' || role === 'link' || role === 'heading' || role === 'tab' || role === 'menuitem' || role === 'option' || role === 'listitem' || role === 'checkbox' || role === 'radio' || role === 'paragraph';
  const name = opt(el.getAttribute('aria-label'), L.text) || label || (tag === 'input' && ['button', 'submit', 'reset'].includes(type) ? opt(el.value, L.text) : undefined) || (named ? text : undefined) || attr('title') || attr('alt') || attr('placeholder');
  const sibling = (dir) => { let n = el[dir]; for (let i = 0; n && i < 5; i++, n = n[dir]) { const t = opt(n.textContent, L.attribute); if (t) return t; } return undefined; };
  const heading = () => {
    let node = el;
    for (let depth = 0; node && node !== document.body && depth < 8; depth++) {
      let prev = node.previousElementSibling;
      for (let i = 0; prev && i < 12; i++, prev = prev.previousElementSibling) {
        if (/^H[1-6]$/.test(prev.tagName) || prev.getAttribute('role') === 'heading') return opt(prev.textContent, L.attribute);
        const inner = prev.querySelectorAll ? prev.querySelectorAll('h1,h2,h3,h4,h5,h6') : [];
        if (inner.length > 0) return opt(inner[inner.length - 1].textContent, L.attribute);
      }
      node = node.parentElement;
    }
    return undefined;
  };
  const classes = Array.from(el.classList || []).slice(0, L.classes).map((c) => String(c).slice(0, L.classChars)).filter(Boolean);
  const r = el.getBoundingClientRect();
  const vw = window.innerWidth || 1, vh = window.innerHeight || 1;
  const round = (v) => Math.round(Math.max(-1000, Math.min(1000, v)) * 1000) / 1000;
  const box = { x: round((r.left + window.scrollX) / vw), y: round((r.top + window.scrollY) / vh), width: round(r.width / vw), height: round(r.height / vh) };
  let index = 0;
  for (let s = el.previousElementSibling; s && index < 100000; s = s.previousElementSibling) if (s.tagName === el.tagName) index++;
  const attributes = {};
  for (const n of ['name', 'type', 'placeholder', 'title', 'alt', 'href']) { const v = attr(n); if (v) attributes[n] = v; }
  const neighbours = {};
  const previous = sibling('previousElementSibling'), next = sibling('nextElementSibling'), head = heading();
  if (previous) neighbours.previous = previous;
  if (next) neighbours.next = next;
  if (head) neighbours.heading = head;
  const out = { tag, classes, attributes, neighbours, box, index };
  if (role) out.role = role;
  if (name) out.name = name;
  if (text) out.text = text;
  const testId = attr('data-testid'); if (testId) out.testId = testId;
  const id = attr('id'); if (id) out.id = id;
  if (label) out.label = label;
  return out;
}`;

/**
 * The selector engine that fingerprints, registered as a content script: Playwright runs such an engine in the
 * utility world its actions already set up, where an evaluation in the page's main world (`$$eval`) would first set
 * up Playwright's injected script there, once per document (about 100-150 ms of CPU across the processes, most of
 * what fingerprints cost). Chained after a locator's selector (`<selector> >> fullstop-fingerprint=element`), it is
 * given each element the selector found and answers, in their place, a detached element whose text is that
 * element's fingerprint as JSON: `textContent` reads it, strict (several elements are no fingerprint). The utility
 * world is also out of the page's reach: the page's scripts cannot replace what the engine calls.
 */
export const FINGERPRINT_ENGINE = 'fullstop-fingerprint';
export const FINGERPRINT_ENGINE_SOURCE = `({
  queryAll(root, body) { ${DESCRIBE}
    if (!root || root.nodeType !== 1) return [];
    if (body === 'none') return [document.createElement('output')];
    const out = document.createElement('output');
    out.textContent = JSON.stringify(describe(root, ${JSON.stringify(PAGE_LIMITS)}));
    return [out];
  },
})`;
/** The fingerprint of the one element a locator's selector finds (FINGERPRINT_ENGINE). */
export const fingerprintSelector = (selector: string) => `${selector} >> ${FINGERPRINT_ENGINE}=element`;
/** Chained after an element: an empty answer, a fingerprint of nothing (what a query of `<html>` without the element reads). */
export const FINGERPRINT_NONE = `${FINGERPRINT_ENGINE}=none`;

/**
 * For `evaluate(CANDIDATES_OF, { ...limits, selector, max })`: the rendered candidates of the page, each with its
 * place in `querySelectorAll(selector)` (how a heal's check finds it again).
 */
export const CANDIDATES_OF = `(L) => { ${DESCRIBE}
  const all = document.querySelectorAll(L.selector);
  const out = [];
  for (let i = 0; i < all.length && i < L.max; i++) {
    const el = all[i];
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0 && !(el.tagName === 'INPUT' && el.type === 'file')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    out.push({ at: i, fingerprint: describe(el, L) });
  }
  return out;
}`;

/** For `$$eval(newSelector, IS_CANDIDATE, { selector, at })`: whether the selector finds that candidate and it alone. */
export const IS_CANDIDATE = `(els, L) => els.length === 1 && els[0] === document.querySelectorAll(L.selector)[L.at]`;

/**
 * A function Playwright sends as its source: `String(fn)` is the source, `typeof fn` is a function, so Playwright
 * calls it with its argument in the page.
 */
export function pageFunction(source: string): () => void {
  const fn = () => undefined;
  fn.toString = () => source;
  return fn;
}
