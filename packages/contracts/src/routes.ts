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
  bugs: '/dashboard/bugs',
  /** One bug; build it with bugPath. */
  bug: '/dashboard/bugs/:bugId',
  team: '/dashboard/team',
  account: '/dashboard/account',
  /** Where an invitation's link lands: sets the new user's password (`?token=`). */
  invite: '/invite',
  /** Where an e-mail alert channel's confirmation link lands (`?token=`); no login. */
  alertConfirm: '/confirm-alerts',
  /** The operators' console. */
  ops: '/ops',
  opsClients: '/ops/clients',
  /** One client in the console; build it with opsClientPath. */
  opsClient: '/ops/clients/:clientId',
  opsRuns: '/ops/runs',
  opsBugs: '/ops/bugs',
  opsBug: '/ops/bugs/:bugId',
  opsRequests: '/ops/requests',
  opsSuites: '/ops/suites',
  /** The operators' queue of manual test cases waiting for a tester (issue 41). */
  opsManual: '/ops/manual',
  /** One piece of manual work, walked by its tester; build it with opsManualPath. */
  opsManualWork: '/ops/manual/:manualId',
  opsAudit: '/ops/audit',
  opsSystem: '/ops/system',
  opsAccount: '/ops/account',
} as const;

/** The address of one run's detail page. */
export const historyRunPath = (runId: string) => paths.historyRun.replace(':runId', encodeURIComponent(runId));

/** The address of one bug in the portal, and in the console. */
export const bugPath = (bugId: string) => paths.bug.replace(':bugId', encodeURIComponent(bugId));
export const opsBugPath = (bugId: string) => paths.opsBug.replace(':bugId', encodeURIComponent(bugId));
/** The address of one piece of manual work in the console. */
export const opsManualPath = (manualId: string) => paths.opsManualWork.replace(':manualId', encodeURIComponent(manualId));
/** The address of one client in the console. */
export const opsClientPath = (clientId: string) => paths.opsClient.replace(':clientId', encodeURIComponent(clientId));

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
