/**
 * What the site survey measured (site-survey.ts): the server writes a starter suite from it.
 *
 * Everything in a survey came from a client's website, which may be hostile: the runner parses what it measured
 * with `SiteSurvey` before it writes `survey.json`, and the server parses the file with it again before it writes a
 * line of the suite (a runner is another OS user, and the page's own scripts answered some of it). Numbers are
 * non-negative whole numbers, strings and lists bounded, an axe impact one of four words.
 */
import { z } from 'zod';
import { JsonShape, MAX_KEY_CHARS } from '../lib/call-shape.ts';

/** The file the survey writes in its attempt's folder. */
export const SURVEY_FILE = 'survey.json';
/** The kind a survey's attempt carries: the runner process picks its runner by it (a browser crawl, logged in as a browser test is). */
export const SURVEY_KIND = 'browser' as const;
export const SURVEY_DEFAULT_PAGES = 25;
export const SURVEY_MAX_PAGES = 100;
/**
 * The most `survey.json` may weigh: the server reads no more. The runner makes what it writes fit (the pages'
 * links, which it has counted already, go first).
 */
export const SURVEY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The time the visual tests' pages are looked at twice in (changing-elements.ts), all together: past it, a page not
 * looked at yet gets its visual test without masks, and the proposal says so. The server's time limit for a survey
 * counts it (apps/server/src/features/suites/proposal-service.ts, surveySecondsFor).
 */
export const LOOK_BUDGET_MS = 150_000;

/** The bounds of what a survey holds (the runner cuts what it measured to them; the schema refuses more). */
export const SURVEY_LIMITS = {
  /** An address or a path (the crawl leaves out longer ones). */
  urlChars: 2_000,
  /** A page's title, a console error. */
  textChars: 300,
  /** Why a page or an address of the crawl failed. */
  errorChars: 1_000,
  headingChars: 200,
  linksPerPage: 1_000,
  consoleErrors: 20,
  broken: 20,
  axeViolations: 200,
  axeIdChars: 100,
  homeSamples: 20,
  refused: 50,
  errors: 50,
  /** Data calls kept of one page (XHR and fetch to the website's origin, one per method, path and query keys). */
  callsPerPage: 50,
  /** Keys kept of a call's query (never their values). */
  queryKeys: 20,
  /** Selectors a visual test of a page masks (changing-elements.ts), and their length. */
  masks: 10,
  selectorChars: 200,
} as const;

/** The methods a kept call may have; a call with another is left out. */
export const CALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export const AXE_IMPACTS = ['minor', 'moderate', 'serious', 'critical'] as const;

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const ms = count;
const text = (max: number) => z.string().max(max);
const url = text(SURVEY_LIMITS.urlChars);

/**
 * A data call (XHR or fetch) the page made to the website's origin while it loaded: what it asked, never a value it
 * sent or got (no query value, no body value, no cookie, no header). `path` is the path alone; its query's keys are in
 * `query`.
 */
export const SurveyedCall = z
  .object({
    method: z.enum(CALL_METHODS),
    path: url.startsWith('/'),
    query: z.array(text(MAX_KEY_CHARS).min(1)).max(SURVEY_LIMITS.queryKeys),
    /** The top-level keys of its JSON body and each value's type (lib/call-shape.ts), when it sent a JSON object. */
    json: JsonShape.optional(),
    /** Its answer's status; null when it had none (it failed, or the page was closed first). */
    status: z.number().int().min(0).max(999).nullable(),
    /** From the request to the end of its answer, ms; null without an answer. */
    ms: ms.nullable(),
  })
  .strict();
export type SurveyedCall = z.infer<typeof SurveyedCall>;

/** Why a selector is masked: its elements changed between two visits, or while one visit held still. */
export const MASK_REASONS = ['between visits', 'while shown'] as const;

/**
 * What two visits of a page proposed for a visual test found (changing-elements.ts): the elements whose pixels
 * changed between them (a relative date, a counter, a carousel, an avatar), as CSS selectors to mask; whether the
 * whole page holds its size (else only the screen is compared); or why no mask holds it still.
 */
export const SurveyedLook = z
  .object({
    masks: z
      .array(
        z
          .object({
            // Printable ASCII: a selector goes into suite.json and, as text, into descriptions and notes.
            selector: text(SURVEY_LIMITS.selectorChars).regex(/^[\x20-\x7e]+$/),
            why: z.enum(MASK_REASONS),
          })
          .strict(),
      )
      .max(SURVEY_LIMITS.masks),
    /** The whole page kept its size between the visits; false: its height changed, only the screen is compared. */
    fullPage: z.boolean(),
    /** Why no visual test is proposed: what changed could not be masked (too much of the page, or no element holds it). */
    unstable: text(SURVEY_LIMITS.errorChars).optional(),
  })
  .strict();
export type SurveyedLook = z.infer<typeof SurveyedLook>;

export const SurveyedPage = z
  .object({
    /** Path and query on the website's origin, with a hash route (`/#/about`: lib/page-path.ts), as the crawl found it. */
    path: url.startsWith('/'),
    /** Where the browser ended (a redirect): a path on the origin, or a whole URL elsewhere. */
    finalPath: url,
    status: z.number().int().min(0).max(999).nullable(),
    html: z.boolean(),
    /** From the navigation to the load event, ms. */
    loadMs: ms.nullable(),
    title: text(SURVEY_LIMITS.textChars),
    heading: text(SURVEY_LIMITS.headingChars),
    /** The website's pages it links to (paths). */
    links: z.array(url).max(SURVEY_LIMITS.linksPerPage),
    /** How many other pages found link to it. */
    inbound: count,
    forms: count,
    images: count,
    /** A visible `main` landmark. */
    main: z.boolean(),
    consoleErrors: z.array(text(SURVEY_LIMITS.textChars)).max(SURVEY_LIMITS.consoleErrors),
    /** axe's violations (WCAG 2.1 A/AA) when the crawl loaded it: the proposed accessibility test leaves these rules out, as known. */
    axe: z.array(z.object({ id: text(SURVEY_LIMITS.axeIdChars).min(1), impact: z.enum(AXE_IMPACTS) }).strict()).max(SURVEY_LIMITS.axeViolations),
    /** Images, scripts, style sheets or calls that answered 4xx/5xx (or images that did not load). */
    broken: z.array(url).max(SURVEY_LIMITS.broken),
    /** The data calls it made while it loaded, in the order made. */
    calls: z.array(SurveyedCall).max(SURVEY_LIMITS.callsPerPage),
    /** Set on the pages proposed for a visual test (proposed-pages.ts): what two visits of it found to mask. */
    look: SurveyedLook.optional(),
    error: text(SURVEY_LIMITS.errorChars).optional(),
  })
  .strict();
export type SurveyedPage = z.infer<typeof SurveyedPage>;

export const SiteSurvey = z
  .object({
    baseUrl: url,
    /** The crawl ran with the suite's login. */
    loggedIn: z.boolean(),
    pages: z.array(SurveyedPage).max(SURVEY_MAX_PAGES),
    /** The home document over HTTP, a few times (ms). */
    homeResponseMs: z.array(ms).max(SURVEY_LIMITS.homeSamples),
    /** What pages asked of origins the target policy refuses. */
    refused: z.array(url).max(SURVEY_LIMITS.refused),
    errors: z.array(z.object({ url, error: text(SURVEY_LIMITS.errorChars) }).strict()).max(SURVEY_LIMITS.errors),
    budgetReached: z.boolean(),
    crawlMs: ms,
  })
  .strict();
export type SiteSurvey = z.infer<typeof SiteSurvey>;
