/**
 * The data calls a page makes while the survey measures it (XHR and fetch to the website's origin): what each asked
 * (method, path, its query's keys, its JSON body's shape), its answer's status and time. Never a value: no query
 * value, no body value, no cookie, no header is read into it. The starter suite's load test asks for the GET ones.
 */
import type { Page, Request } from 'playwright-core';
import { jsonShapeOf, MAX_KEY_CHARS } from '../lib/call-shape.ts';
import { CALL_METHODS, SURVEY_LIMITS, type SurveyedCall } from './survey-types.ts';

/**
 * The call a request is, as the survey keeps it; null when it is not one it keeps (another origin, another method,
 * an address too long). `body` is read only when asked (it is the page's, and may be large).
 */
export function surveyedCall(method: string, address: string, origin: string, body: () => { data: string | null; contentType?: string | undefined }): SurveyedCall | null {
  const url = URL.parse(address);
  const known = CALL_METHODS.find((m) => m === method.toUpperCase());
  if (!url || url.origin !== origin || !known || url.pathname.length > SURVEY_LIMITS.urlChars) return null;
  const query = [...new Set(url.searchParams.keys())].filter((k) => k.length > 0 && k.length <= MAX_KEY_CHARS).slice(0, SURVEY_LIMITS.queryKeys);
  const sent = known === 'GET' || known === 'HEAD' ? null : body();
  const json = sent ? jsonShapeOf(sent.data, sent.contentType) : null;
  return { method: known, path: url.pathname, query, ...(json ? { json } : {}), status: null, ms: null };
}

/** The same call twice (a poll, a retry) is kept once. */
const keyOf = (call: SurveyedCall) => JSON.stringify([call.method, call.path, [...call.query].sort()]);

/** Starts recording the page's data calls to `origin`; `calls()` answers what it recorded, at most callsPerPage. */
export function recordCalls(page: Page, origin: string): { calls: () => SurveyedCall[] } {
  const kept = new Map<string, SurveyedCall>();
  const started = new Map<Request, { call: SurveyedCall; at: number }>();
  page.on('request', (request) => {
    const type = request.resourceType();
    if ((type !== 'xhr' && type !== 'fetch') || kept.size >= SURVEY_LIMITS.callsPerPage) return;
    const call = surveyedCall(request.method(), request.url(), origin, () => ({ data: request.postData(), contentType: request.headers()['content-type'] }));
    if (!call || kept.has(keyOf(call))) return;
    kept.set(keyOf(call), call);
    started.set(request, { call, at: performance.now() });
  });
  page.on('response', (response) => {
    const own = started.get(response.request());
    if (own) own.call.status = response.status();
  });
  page.on('requestfinished', (request) => {
    const own = started.get(request);
    if (own) own.call.ms = own.call.status === null ? null : Math.round(performance.now() - own.at);
    started.delete(request);
  });
  page.on('requestfailed', (request) => void started.delete(request));
  return { calls: () => [...kept.values()].map((c) => ({ ...c, query: [...c.query] })) };
}
