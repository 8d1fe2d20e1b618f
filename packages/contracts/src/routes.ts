/**
 * The SPA's route table, shared by the web app (links, router) and the server (which paths answer 200).
 * Links are built from here, never typed as strings elsewhere.
 */
export const paths = {
  home: '/',
  services: '/services',
  pricing: '/pricing',
  contactUs: '/contact-us',
  privacyPolicy: '/privacy-policy',
  cookiePolicy: '/cookie-policy',
  termsOfService: '/terms-of-service',
  disclaimer: '/disclaimer',
  login: '/login',
  dashboard: '/dashboard',
  insights: '/dashboard/insights',
  setup: '/dashboard/setup',
  tests: '/dashboard/tests',
  reports: '/dashboard/reports',
  requests: '/dashboard/requests',
  history: '/dashboard/history',
  /** One run of the history; build it with historyRunPath. */
  historyRun: '/dashboard/history/:runId',
} as const;

/** The address of one run's detail page. */
export const historyRunPath = (runId: string) => paths.historyRun.replace(':runId', encodeURIComponent(runId));

export type PathName = keyof typeof paths;

/** Every path the SPA renders a page for; anything else gets the 404 page with HTTP status 404. */
export const spaPaths: readonly string[] = Object.values(paths);

export const marketingPaths: readonly string[] = [
  paths.home,
  paths.services,
  paths.pricing,
  paths.contactUs,
  paths.privacyPolicy,
  paths.cookiePolicy,
  paths.termsOfService,
  paths.disclaimer,
];
