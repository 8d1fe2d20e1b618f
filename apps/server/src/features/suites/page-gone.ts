import type { RunTarget } from '@fullstop/engine';
import { OutboundUnreachableError, outboundRequest } from '../../lib/outbound-http.ts';

/**
 * Is a page gone? (decision 0102) A re-crawl asks about each page the current suite's proposed tests name that the
 * survey did not find loading: twice, GONE_PAUSE_MS apart, through the target policy (lib/outbound-http.ts: http(s),
 * the website's own origin, no private address unless the client's target allows it, DNS pinned, no redirect
 * followed). Only the status is read; the body is dropped. A page that answers 404 or 410 both times is gone; anything
 * else (200, a redirect, a 500, no answer) keeps its tests.
 */

/** Statuses that say a page is gone, not broken. */
export const GONE_STATUSES: readonly number[] = [404, 410];
/** Between the two questions: a page a deploy is still putting in place gets these seconds to come back. */
export const GONE_PAUSE_MS = 5_000;
/** One question's whole time, from the lookup to the last byte. */
const ASK_DEADLINE_MS = 10_000;
/** Questions at once. */
const AT_ONCE = 4;
const USER_AGENT = 'FullstopQA-Proposal';

export interface PageVerdict {
  gone: boolean;
  /** "/old-pricing answered 404 twice, at 12:01:03 and 12:01:08 UTC", or what it answered instead. */
  says: string;
}

export type AskPage = (url: string) => Promise<number>;

/** A page's status through the target policy; throws OutboundUnreachableError when refused or unreachable. */
function askerFor(target: RunTarget): AskPage {
  return async (url) => (await outboundRequest(url, { method: 'GET', headers: { accept: 'text/html' }, allowPrivate: target.allowPrivateAddresses, userAgent: USER_AGENT, deadlineMs: ASK_DEADLINE_MS })).status;
}

const timeOf = (at: Date) => at.toISOString().slice(11, 19);

/** Each path's verdict: asked twice, `pauseMs` apart; a second time only when the first answer said gone. */
export async function askWhetherGone(target: RunTarget, paths: readonly string[], options: { pauseMs?: number; ask?: AskPage } = {}): Promise<Map<string, PageVerdict>> {
  const ask = options.ask ?? askerFor(target);
  const verdicts = new Map<string, PageVerdict>();
  const origin = new URL(target.baseUrl).origin;
  const once = async (path: string): Promise<{ status: number | null; at: Date; why?: string }> => {
    const at = new Date();
    const url = new URL(path, target.baseUrl);
    if (url.origin !== origin) return { status: null, at, why: 'not on the website' };
    try {
      return { status: await ask(url.href), at };
    } catch (err) {
      if (!(err instanceof OutboundUnreachableError)) throw err;
      return { status: null, at, why: err.message };
    }
  };
  const inTurn = async (list: readonly string[], each: (path: string) => Promise<void>) => {
    for (let i = 0; i < list.length; i += AT_ONCE) await Promise.all(list.slice(i, i + AT_ONCE).map(each));
  };

  // A hash route is its document over HTTP: whether the route is gone cannot be asked.
  const askable = paths.filter((p) => !p.includes('#'));
  for (const p of paths) if (p.includes('#')) verdicts.set(p, { gone: false, says: `${p} is a route of its page's document, which HTTP cannot ask about` });
  const first = new Map<string, { status: number | null; at: Date; why?: string }>();
  await inTurn(askable, async (p) => void first.set(p, await once(p)));
  const again = askable.filter((p) => GONE_STATUSES.includes(first.get(p)!.status ?? 0));
  for (const p of askable) {
    const answer = first.get(p)!;
    if (!again.includes(p)) verdicts.set(p, { gone: false, says: answer.status === null ? `${p} could not be asked (${answer.why})` : `${p} answered ${answer.status}` });
  }
  if (again.length === 0) return verdicts;
  await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? GONE_PAUSE_MS));
  await inTurn(again, async (p) => {
    const a = first.get(p)!;
    const b = await once(p);
    const gone = GONE_STATUSES.includes(b.status ?? 0);
    verdicts.set(p, {
      gone,
      says: gone
        ? a.status === b.status
          ? `${p} answered ${a.status} twice, at ${timeOf(a.at)} and ${timeOf(b.at)} UTC`
          : `${p} answered ${a.status} at ${timeOf(a.at)} and ${b.status} at ${timeOf(b.at)} UTC`
        : `${p} answered ${a.status}, then ${b.status === null ? `nothing (${b.why})` : b.status} ${Math.round((b.at.getTime() - a.at.getTime()) / 1000)} s later`,
    });
  });
  return verdicts;
}
