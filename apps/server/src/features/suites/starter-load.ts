import type { SiteSurvey, SurveyedCall } from '@fullstop/engine/survey';

/**
 * The starter suite's load test (docs/starter-suite.md): the home page and the data calls it makes, as a visitor
 * asks for them, at a light pace. Only GET calls to the website's own origin that answered below 400, without a
 * query (the survey keeps a query's keys, never its values: a call without them would not be the page's) and
 * whose path says nothing secret (a token in a path would be written into the suite) nor that it ends a session.
 */

/** The load test's p95 limit: this many times what the crawl measured, and never under the floor. */
const LOAD_P95_FACTOR = 4;
const LOAD_P95_FLOOR_MS = 500;
/** Data calls the load test asks for at most, besides the home page. */
const LOAD_MAX_CALLS = 10;
/**
 * A light pace when it asks for the page's calls: 5 visitors, 10 requests a second in all, for 10 s (each visitor
 * asks for the page, then its calls, in turn). Today's test (5 connections as fast as answered, 5 s) is kept for a
 * home page that makes no data call.
 */
export const LIGHT_PACE = { connections: 5, rate: 10, durationSeconds: 10 } as const;
const DOCUMENT_ONLY = { connections: 5, durationSeconds: 5 } as const;

/** A path segment that reads as a secret: a JWT, or a long run of letters and digits (a token, a key, a session id). */
const SECRET_SEGMENT = /^eyJ[\w-]{5,}|^(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{24,}$/;
/** Words of a path a load test must not ask for even with GET: it would end its login or change something. */
const NEVER_LOAD = /\b(log\s*-?\s*out|sign\s*-?\s*out|delete|remove|destroy|unsubscribe|deactivate)\b/i;
/** What a load test's request path may hold (the load kind refuses spaces and control characters). */
const REQUEST_TARGET = /^\/[\x21-\x7e]*$/;

interface LoadTestJson {
  name: string;
  kind: 'load';
  description: string;
  options: Record<string, unknown>;
  thresholds: Record<string, number>;
}

/** The home document's time as the crawl measured it: the median of its samples (the first pays for the connection). */
function homeMs(survey: SiteSurvey): number | null {
  const sorted = [...survey.homeResponseMs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : null;
}

/** Why a call of the home page is not asked for by the load test; null when it is. */
function whyNotLoaded(call: SurveyedCall): string | null {
  if (call.method !== 'GET') return `${call.method}: the load test asks, it does not send`;
  if (call.status === null || call.status >= 400) return call.status === null ? 'no answer when the crawl ran' : `answered ${call.status} when the crawl ran`;
  if (call.query.length > 0) return 'has a query, whose values the survey does not keep';
  if (!REQUEST_TARGET.test(call.path)) return 'its path is not one a request may hold';
  const words = call.path.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');
  if (NEVER_LOAD.test(words)) return 'its path says it ends or changes something';
  if (call.path.split('/').some((s) => SECRET_SEGMENT.test(s))) return 'its path looks like it holds a secret';
  return null;
}

/** The home page's GET data calls the load test asks for (each once), and those left out with why. */
export function homeDataCalls(survey: SiteSurvey): { calls: SurveyedCall[]; leftOut: { call: SurveyedCall; reason: string }[] } {
  const home = survey.pages.find((p) => p.path === '/');
  const calls: SurveyedCall[] = [];
  const leftOut: { call: SurveyedCall; reason: string }[] = [];
  for (const call of home?.calls ?? []) {
    const reason = whyNotLoaded(call) ?? (calls.some((c) => c.path === call.path) || call.path === '/' ? 'asked already' : calls.length >= LOAD_MAX_CALLS ? `more than ${LOAD_MAX_CALLS} calls` : null);
    if (reason === 'asked already') continue;
    if (reason) leftOut.push({ call, reason });
    else calls.push(call);
  }
  return { calls, leftOut };
}

/** The p95 limit: LOAD_P95_FACTOR times the slowest of the home document's median and the calls' times, at least the floor. */
export function loadP95Limit(survey: SiteSurvey, calls: SurveyedCall[] = []): number {
  const slowest = Math.max(homeMs(survey) ?? 0, ...calls.map((c) => c.ms ?? 0));
  return Math.max(LOAD_P95_FACTOR * slowest, LOAD_P95_FLOOR_MS);
}

/** A path as a description or a note shows it: printable ASCII (anything else a `?`), at most 60 characters. */
const shown = (path: string) => {
  const printable = path.replace(/[^\x21-\x7e]/g, '?');
  return printable.length > 60 ? `${printable.slice(0, 57)}...` : printable;
};

/**
 * "Home page under light load": the home page and its data calls at LIGHT_PACE, or the home document alone as before
 * when it makes none (the note says so, for the proposal's notes).
 */
export function starterLoadTest(survey: SiteSurvey): { test: LoadTestJson; notes: string[] } {
  const measured = homeMs(survey);
  const { calls, leftOut } = homeDataCalls(survey);
  const limit = `p95 must stay within ${LOAD_P95_FACTOR} times the slowest (${LOAD_P95_FLOOR_MS} ms at least)`;
  const thresholds = { maxP95Ms: loadP95Limit(survey, calls), maxFailedRate: 1 };
  const notLoaded = leftOut.length ? ` Left out: ${leftOut.length} call(s) of the home page (${leftOut.slice(0, 3).map((l) => `${l.call.method} ${shown(l.call.path)}: ${l.reason}`).join('; ')}${leftOut.length > 3 ? '; ...' : ''}).` : '';
  if (calls.length === 0) {
    return {
      test: {
        name: 'Home page under light load',
        kind: 'load',
        description: `5 connections for 5 s on the home page's document. The crawl measured ${measured ?? '?'} ms for it; p95 must stay within ${LOAD_P95_FACTOR} times that (${LOAD_P95_FLOOR_MS} ms at least).`,
        options: { requests: [{ path: '/' }], ...DOCUMENT_ONLY },
        thresholds,
      },
      notes: [`The load test asks for the home page's document only: the crawl saw the home page make no data call it could ask for (GET, on the website's origin, answered below 400, without a query).${notLoaded}`],
    };
  }
  const list = calls.map((c) => shown(c.path));
  const intro = `The home page and the ${calls.length} data call(s) it makes, in turn, as ${LIGHT_PACE.connections} visitors at ${LIGHT_PACE.rate} requests a second in all for ${LIGHT_PACE.durationSeconds} s: `;
  const times = ` The crawl measured ${measured ?? '?'} ms for the document and up to ${Math.max(...calls.map((c) => c.ms ?? 0))} ms for a call; ${limit}.`;
  const room = 500 - intro.length - times.length - 1;
  let paths = list.join(', ');
  if (paths.length > room) paths = `${paths.slice(0, Math.max(0, room - 4))}, ...`;
  return {
    test: {
      name: 'Home page under light load',
      kind: 'load',
      description: `${intro}${paths}.${times}`.slice(0, 500),
      options: { requests: [{ path: '/' }, ...calls.map((c) => ({ path: c.path }))], ...LIGHT_PACE },
      thresholds,
    },
    notes: leftOut.length ? [`The load test asks for the home page and ${calls.length} of its data calls.${notLoaded}`] : [],
  };
}
