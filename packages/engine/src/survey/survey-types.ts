/** What the site survey measured (site-survey.ts): the server writes a starter suite from it. */

/** The file the survey writes in its attempt's folder. */
export const SURVEY_FILE = 'survey.json';
/** The kind a survey's attempt carries: the runner process picks its runner by it (a browser crawl, logged in as a browser test is). */
export const SURVEY_KIND = 'browser' as const;
export const SURVEY_DEFAULT_PAGES = 25;
export const SURVEY_MAX_PAGES = 100;

export interface SurveyedPage {
  /** Path and query on the website's origin, as the crawl found it. */
  path: string;
  /** Where the browser ended (a redirect): a path on the origin, or a whole URL elsewhere. */
  finalPath: string;
  status: number | null;
  html: boolean;
  /** From the navigation to the load event, ms. */
  loadMs: number | null;
  title: string;
  heading: string;
  /** The website's pages it links to (paths). */
  links: string[];
  /** How many other pages found link to it. */
  inbound: number;
  forms: number;
  images: number;
  /** A visible `main` landmark. */
  main: boolean;
  consoleErrors: string[];
  /** axe's violations (WCAG 2.1 A/AA) when the crawl loaded it: the proposed accessibility test leaves these rules out, as known. */
  axe: { id: string; impact: string }[];
  /** Images, scripts, style sheets or calls that answered 4xx/5xx (or images that did not load). */
  broken: string[];
  error?: string;
}

export interface SiteSurvey {
  baseUrl: string;
  /** The crawl ran with the suite's login. */
  loggedIn: boolean;
  pages: SurveyedPage[];
  /** The home document over HTTP, a few times (ms). */
  homeResponseMs: number[];
  /** What pages asked of origins the target policy refuses. */
  refused: string[];
  errors: { url: string; error: string }[];
  budgetReached: boolean;
  crawlMs: number;
}
