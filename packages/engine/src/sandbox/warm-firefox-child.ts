/**
 * `node warm-firefox-child <folder> <firefox>`: makes the warm Firefox template in `folder` (lib/warm-firefox.ts).
 * Firefox starts on a fresh profile with the engine's prefs and no way out (its proxy is a closed port), opens
 * about:blank and quits; its profile, less what a session leaves (NOT_TEMPLATED), becomes the template, beside the
 * wrapper that seeds each launch's profile from it. Exits 0 when the template is whole, 1 with a line why not.
 */
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FIREFOX_BIDI, GUARDED_FIREFOX_PREFS } from '../lib/firefox.ts';
import { launchers } from '../runners/browser/browser-servers.ts';
import { shellQuote } from './net-jail.ts';
import { NOT_TEMPLATED, PROFILE_OF_ARGS, WARM_PROFILE, WARM_WRAPPER, WARM_WRAPS, warmWrapperScript } from '../lib/warm-firefox.ts';

/** The launch, and the whole making of the template, at most. */
const LAUNCH_TIMEOUT_MS = 60_000;
/** Nothing listens there: whatever Firefox asks of the network while the template is made is refused. */
const NOWHERE = 'http://127.0.0.1:9';

async function makeTemplate(dir: string, firefox: string): Promise<void> {
  const used = path.join(dir, 'used');
  await mkdir(used);
  // Playwright removes the profile once Firefox has exited: a script between them copies it out first.
  const capture = path.join(dir, 'capture');
  await writeFile(
    capture,
    ['#!/bin/sh', ...PROFILE_OF_ARGS, `${shellQuote(firefox)} "$@"`, 'status=$?', `[ -n "$profile" ] && cp -R "$profile"/. ${shellQuote(used)}/`, 'exit $status', ''].join('\n'),
    { mode: 0o700 },
  );
  const browser = await launchers()[FIREFOX_BIDI.browserName]!.launch({
    channel: FIREFOX_BIDI.channel,
    executablePath: capture,
    firefoxUserPrefs: GUARDED_FIREFOX_PREFS,
    headless: true,
    timeout: LAUNCH_TIMEOUT_MS,
    proxy: { server: NOWHERE },
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
  });
  try {
    const context = await browser.newContext();
    await (await context.newPage()).goto('about:blank');
    await context.close();
  } finally {
    await browser.close();
  }
  const profile = path.join(dir, WARM_PROFILE);
  await mkdir(profile);
  const entries = (await readdir(used)).filter((name) => !NOT_TEMPLATED.has(name));
  if (!entries.includes('startupCache')) throw new Error('Firefox left no startup cache in its profile');
  for (const name of entries) await cp(path.join(used, name), path.join(profile, name), { recursive: true });
  await rm(used, { recursive: true, force: true });
  await rm(capture, { force: true });
  await writeFile(path.join(dir, WARM_WRAPS), firefox);
  await writeFile(path.join(dir, WARM_WRAPPER), warmWrapperScript(dir, firefox), { mode: 0o755 });
}

// Ended by the server: Playwright's own exit hook kills the browser it started.
process.once('SIGTERM', () => process.exit(1));
const [dir, firefox] = process.argv.slice(2);
try {
  if (!dir || !firefox) throw new Error('usage: warm-firefox-child <folder> <firefox>');
  await makeTemplate(dir, firefox);
  process.exit(0);
} catch (error) {
  process.stderr.write(`the warm Firefox template was not made: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
