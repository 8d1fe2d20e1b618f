/**
 * The fixed API paths the web app and the end-to-end tests call, in one table (the server registers the same
 * strings). Paths with an id in them are built by their caller from these prefixes.
 */
export const apiPaths = {
  login: '/auth/login',
  refreshToken: '/auth/refresh-token',
  logout: '/auth/logout',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  clientProfile: '/clientProfile',
  generateApiKey: '/clientProfile/generateAPIKey',
  insights: '/insight/fetch/all',
  insightTrends: '/insight/trends',
  tests: '/test/fetch/all',
  /** Where the client's suite stands before its first one is current (issue 39). */
  suiteStatus: '/test/suite-status',
  runAllTests: '/test/run/all',
  runTest: '/test/run',
  reports: '/report/fetch/all',
  requests: '/requests',
  bugs: '/bugs',
  operatorBugs: '/operator/bugs',
  /** The spec's logout clears these three server caches. */
  clearCaches: ['/test/clearCache', '/report/clearCache', '/clientProfile/clearCache'],
} as const;
