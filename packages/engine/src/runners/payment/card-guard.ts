/**
 * The rule that keeps a live card out of every payment test (issue 43, decision 0097): the engine types only the
 * catalogue's numbers, refuses any other Luhn-valid number among a test's inputs before a browser sees them, and
 * aborts any request of a guarded browser context whose URL or body carries one. Loaded by the payment kind and by
 * the helper a client's spec imports (`@fullstop/engine/payments`): no import of the engine's other code.
 */
import type { BrowserContext, Route } from 'playwright-core';
import { foreignCardNumbers, liveCardRefusal } from '@fullstop/contracts/payments';

/** A number that could be a live card was refused: in a test's inputs, or in a request a guarded page made. */
export class LiveCardRefusedError extends Error {
  readonly code = 'live_card_refused';
  /** The refused numbers, masked to their last four digits. */
  readonly masked: readonly string[];
  /** Where it was refused: the option's path (`options.steps.0.fill.value`), or the request's URL without its query. */
  readonly where: string;

  constructor(masked: readonly string[], where: string) {
    super(`${where}: ${liveCardRefusal(masked)}`);
    this.name = 'LiveCardRefusedError';
    this.masked = masked;
    this.where = where;
  }
}

/** `+` as a space and percent-escapes decoded, as a form or a query sends them; the text as it is when it is no such encoding. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text.replace(/\+/g, ' ').replace(/%20/gi, ' ');
  }
}

/** The card numbers that could be live in a request: in its URL or body, raw or form-decoded. */
export function foreignNumbersInRequest(url: string, body: Buffer | null): string[] {
  const texts = [url, decoded(url)];
  if (body && body.length > 0) {
    const text = body.toString('utf8');
    texts.push(text, decoded(text));
  }
  return [...new Set(texts.flatMap(foreignCardNumbers))];
}

/**
 * Every string among `values` (an object's fields, at any depth) that holds a number that could be live: its path
 * (`steps.0.fill.value`) and the numbers, masked. Empty when there is none.
 */
export function foreignNumbersIn(values: unknown, at: (string | number)[] = []): { path: (string | number)[]; masked: string[] }[] {
  if (typeof values === 'string') {
    const masked = foreignCardNumbers(values);
    return masked.length ? [{ path: at, masked }] : [];
  }
  if (Array.isArray(values)) return values.flatMap((v, i) => foreignNumbersIn(v, [...at, i]));
  if (values && typeof values === 'object') return Object.entries(values).flatMap(([k, v]) => foreignNumbersIn(v, [...at, k]));
  return [];
}

/** Throws a LiveCardRefusedError naming the first input that holds a number that could be live. */
export function refuseForeignNumbers(values: unknown, prefix: string): void {
  const [first] = foreignNumbersIn(values);
  if (first) throw new LiveCardRefusedError(first.masked, [prefix, ...first.path].join('.'));
}

export interface CardGuard {
  /** The numbers refused so far, masked, each once. */
  refused(): string[];
  /** Throws a LiveCardRefusedError when a request was refused. */
  check(): void;
}

const guards = new WeakMap<BrowserContext, Promise<CardGuard>>();

/** A URL as an error may show it: without its query and fragment, where the number was. */
const withoutQuery = (url: string) => url.replace(/[?#].*$/s, '');

/**
 * Guards every request of `context` from now on (once per context, however often it is asked): one whose URL or body
 * holds a number that could be live is aborted before it leaves the browser, and remembered. Other requests go on to
 * the context's other routes, if any, or to the network (`route.fallback`).
 */
export function guardCardRequests(context: BrowserContext): Promise<CardGuard> {
  let guard = guards.get(context);
  if (guard) return guard;
  const refused = new Set<string>();
  let firstUrl = '';
  const handler = async (route: Route) => {
    const request = route.request();
    const found = foreignNumbersInRequest(request.url(), request.postDataBuffer());
    if (found.length === 0) return route.fallback();
    for (const masked of found) refused.add(masked);
    firstUrl ||= withoutQuery(request.url());
    return route.abort('blockedbyclient');
  };
  guard = context.route('**/*', handler).then(() => ({
    refused: () => [...refused],
    check() {
      if (refused.size > 0) throw new LiveCardRefusedError([...refused], `a request to ${firstUrl}`);
    },
  }));
  guards.set(context, guard);
  return guard;
}
