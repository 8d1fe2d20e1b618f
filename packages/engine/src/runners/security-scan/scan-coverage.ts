import type { CrawledEndpoint } from '../../lib/browser-crawl.ts';
import type { JsonShape } from '../../lib/call-shape.ts';
import type { CrawlMode } from '../../lib/crawl-options.ts';
import type { ScanCallCoverage, ScanCoverage } from './facts.ts';
import { plural } from './wapiti.ts';

/** Methods of calls sqlmap attacks: ones that carry a JSON body. */
const BODY_METHODS = ['POST', 'PUT', 'PATCH'];

/**
 * The JSON calls the browser crawl saw the pages make (and those the suite declares) that the scan may attack: a
 * body method with a JSON object, on the target's origins, outside the excluded paths, each method and URL once.
 */
export function attackableCalls(endpoints: readonly CrawledEndpoint[], origins: readonly string[], excludedUrls: readonly string[]): { method: string; url: string; json: JsonShape }[] {
  const seen = new Set<string>();
  return endpoints.flatMap((e) => {
    if (!e.json || !BODY_METHODS.includes(e.method) || seen.has(`${e.method} ${e.url}`)) return [];
    seen.add(`${e.method} ${e.url}`);
    const url = URL.parse(e.url);
    if (!url || !origins.includes(url.origin)) return [];
    if (excludedUrls.some((x) => e.url.startsWith(x))) return [];
    return [{ method: e.method, url: e.url, json: e.json }];
  });
}

const pathOf = (url: string) => URL.parse(url)?.pathname ?? url;

/** Why a call was not attacked to the end, in the words of an incomplete scan. */
function callMissed(c: ScanCallCoverage): string {
  const why = c.status === 'time-limit' ? 'ran out of its share of the scan time' : c.status === 'not-run' ? `did not run (${c.error ?? 'no time was left'})` : `stopped: ${c.error ?? 'an error'}`;
  return `sqlmap ${why} on ${c.method} ${pathOf(c.url)}`;
}

/**
 * wapiti's coverage with sqlmap's calls added: a call not attacked to the end makes the scan incomplete; what was
 * attacked is counted, and a scan that attacked nothing says why (`nothingToAttack`), never passed (issue 38).
 */
export function withCalls(coverage: ScanCoverage, calls: ScanCallCoverage[], context: { pages: number; crawl: CrawlMode }): ScanCoverage {
  const missed = calls.filter((c) => c.status !== 'finished');
  const finished = calls.length - missed.length;
  const incomplete = [coverage.incomplete, ...missed.map(callMissed)].filter(Boolean).join('; ');
  const progress = calls.length ? `${coverage.progress ?? ''}; sqlmap attacked ${finished} of ${plural(calls.length, 'JSON call')}` : coverage.progress;
  const attacked = { targets: coverage.targets.filter((t) => t.modules.length > 0).length, calls: finished };
  const complete = coverage.complete && missed.length === 0;
  const hint = context.crawl === 'browser' ? '' : ' (a browser crawl, crawl "browser", also finds the forms and calls a page\'s scripts make)';
  const nothing = complete && attacked.targets + attacked.calls === 0;
  return {
    ...coverage,
    complete,
    ...(incomplete ? { incomplete } : {}),
    ...(progress ? { progress } : {}),
    calls,
    attacked,
    ...(nothing ? { nothingToAttack: `the scanner found no URL with parameters, form or JSON call to attack on the ${plural(context.pages, 'page')} crawled${hint}` } : {}),
  };
}
