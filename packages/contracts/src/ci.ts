import { z } from 'zod';

// The CI kit: `fullstop run --wait --junit`, its exit codes, and the per-client status badge.

/** `fullstop run --wait` exit codes, as docs/ci.md lists them. */
export const CI_EXIT_CODES = {
  /** Every test passed. */
  passed: 0,
  /** The run ended and at least one test failed. */
  failed: 1,
  /** No verdict: a test could not run, the wait timed out, the key was refused or the server unreachable. */
  couldNotRun: 2,
} as const;

/** The one-file CI runner (Node 18+, no dependencies) every Fullstop server serves: `node fullstop-ci.mjs --junit results.xml`. */
export const CI_SCRIPT_PATH = '/ci/fullstop-ci.mjs';

/** The badge's address: `/badge/<token>.svg`; the token is the only credential and is kept hashed. */
export const BADGE_PATH_PREFIX = '/badge/';
export const BADGE_PATHS = {
  /** GET: the client's badge (created on first call); owners, members and viewers. */
  badge: '/clientProfile/badge',
  /** POST: a new token; the old address answers 404 at once. Owners and members. */
  regenerate: '/clientProfile/badge/regenerate',
} as const;

/** What the badge shows, from the client's last finished run. */
export const badgeState = z.enum(['passing', 'failing', 'could not run', 'no runs']);
export type BadgeState = z.infer<typeof badgeState>;

/**
 * GET /clientProfile/badge (created on first call) and POST …/regenerate. `url` is absolute; the token in it is
 * the only credential. The server looks it up by its hash and keeps a sealed copy so this page can show it again.
 */
export const badgeResponse = z.object({
  url: z.string(),
  markdown: z.string(),
  state: badgeState,
  createdAt: z.string(),
});
export type BadgeResponse = z.infer<typeof badgeResponse>;
