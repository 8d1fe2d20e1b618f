import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunContext } from '../types.ts';
import { shellQuote } from '../sandbox/net-jail.ts';
import { DEFAULT_FIREFOX_PATH } from './firefox.ts';

/**
 * Firefox starts warm (issue 40, decision 0111). A fresh profile makes Firefox build at its start what it keeps in
 * a profile: its compiled chrome scripts (startupCache), its add-ons' registry, its databases' schemas, its first-run
 * migrations. A profile template, made once per server process by a Firefox of our own that opened nothing but
 * about:blank (sandbox/warm-firefox.ts), is copied into each launch's fresh profile before Firefox starts: every
 * attempt still has a profile of its own, and nothing of one attempt reaches another (the template is the server's,
 * read-only to runners).
 */

/** Set by the supervisor in a runner's environment: the folder of the warm template (its wrapper and profile). */
export const WARM_FIREFOX_VAR = 'FULLSTOP_WARM_FIREFOX';

/** In the template's folder: the executable that seeds the profile and starts Firefox, and the Firefox it starts. */
export const WARM_WRAPPER = 'firefox';
export const WARM_WRAPS = 'wraps';
/** In the template's folder: the profile copied into each launch's. */
export const WARM_PROFILE = 'profile';

/**
 * What of a used profile the template leaves out: the locks of the Firefox that made it, the prefs Playwright writes
 * for each launch (user.js), and what a session leaves (its restore data, crash reports).
 */
export const NOT_TEMPLATED = new Set(['lock', '.parentlock', 'parent.lock', 'user.js', 'sessionstore.jsonlz4', 'sessionstore-backups', 'sessionCheckpoints.json', 'crashes', 'minidumps']);

/**
 * The executable that starts `firefoxPath`: the warm template's wrapper where the supervisor prepared one for that
 * Firefox (its folder in WARM_FIREFOX_VAR), else `firefoxPath` itself.
 */
export function firefoxExecutable(firefoxPath: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = env[WARM_FIREFOX_VAR];
  if (!dir) return firefoxPath;
  try {
    return readFileSync(path.join(dir, WARM_WRAPS), 'utf8') === firefoxPath ? path.join(dir, WARM_WRAPPER) : firefoxPath;
  } catch {
    return firefoxPath;
  }
}

/** The Firefox a runner starts for `ctx`: its own or Debian's, warm where a template waits (firefoxExecutable). */
export const runnerFirefox = (ctx: Pick<RunContext, 'firefoxPath'>): string => firefoxExecutable(ctx.firefoxPath ?? DEFAULT_FIREFOX_PATH);

/** A shell script's lines that set `profile` to the folder named by the `--profile` of its arguments. */
export const PROFILE_OF_ARGS = ['profile=; previous=', 'for a do [ "$previous" = --profile ] && profile=$a; previous=$a; done'];

/**
 * The wrapper's script: copies the template's profile into the profile Playwright made for this launch (named by
 * `--profile`), then runs Firefox on it. A copy that fails leaves a fresh profile: Firefox starts cold, as before.
 */
export function warmWrapperScript(dir: string, firefoxPath: string): string {
  return [
    '#!/bin/sh',
    '# Fullstop: starts Firefox on a copy of the warm profile template (packages/engine/src/lib/warm-firefox.ts).',
    ...PROFILE_OF_ARGS,
    `[ -n "$profile" ] && [ -d "$profile" ] && cp -R ${shellQuote(path.join(dir, WARM_PROFILE))}/. "$profile"/ 2>/dev/null`,
    `exec ${shellQuote(firefoxPath)} "$@"`,
    '',
  ].join('\n');
}
