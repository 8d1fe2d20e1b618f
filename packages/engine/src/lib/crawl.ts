import type { TargetGuard } from '../policy/target-guard.ts';
import { guardedRequest, type GuardedResponse } from './http.ts';

const LINK = /<a\b[^>]*\bhref\s*=\s*["']([^"'#]+)/gi;

/**
 * Fetches the listed pages and, when `crawl` is on, the same-origin pages they link to (breadth first), up to
 * `maxPages`. Links the target policy refuses are skipped, never fetched.
 */
export async function crawlPages(
  guard: TargetGuard,
  start: string[],
  opts: { crawl: boolean; maxPages: number; signal: AbortSignal },
): Promise<{ responses: GuardedResponse[]; errors: { url: string; error: string }[] }> {
  const queue = start.map((p) => new URL(p, guard.baseUrl).href);
  const seen = new Set(queue);
  const responses: GuardedResponse[] = [];
  const errors: { url: string; error: string }[] = [];
  while (queue.length > 0 && responses.length < opts.maxPages) {
    const url = queue.shift() as string;
    try {
      const response = await guardedRequest(guard, url, { signal: opts.signal });
      responses.push(response);
      if (!opts.crawl || !(response.headers.get('content-type') ?? '').includes('text/html')) continue;
      for (const match of response.body.matchAll(LINK)) {
        let next: URL;
        try {
          next = new URL(match[1] ?? '', response.url);
        } catch {
          continue;
        }
        next.hash = '';
        if (next.origin !== guard.baseUrl.origin || seen.has(next.href)) continue;
        seen.add(next.href);
        queue.push(next.href);
      }
    } catch (error) {
      if (opts.signal.aborted) throw error;
      errors.push({ url, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { responses, errors };
}
