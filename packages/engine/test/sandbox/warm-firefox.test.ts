import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIREFOX_PATH } from '../../src/lib/firefox.ts';
import { launchGuardedBrowser } from '../../src/lib/guarded-browser.ts';
import { firefoxExecutable, WARM_FIREFOX_VAR, WARM_PROFILE, WARM_WRAPPER, WARM_WRAPS, warmWrapperScript } from '../../src/lib/warm-firefox.ts';
import { createTargetGuard } from '../../src/policy/target-guard.ts';
import { selfIdentity } from '../../src/sandbox/process-table.ts';
import { startsFirefox, sweepDeadOwnersTemplates, warmFirefoxFolder, warmFirefoxMade } from '../../src/sandbox/warm-firefox.ts';
import { html, startFixtureServer } from '../fixtures/fixture-server.ts';
import { localTarget, makeContext } from '../helpers.ts';

const made: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A template folder as the server makes it, around `firefox`: its profile holds `files`. */
function templateAround(firefox: string, files: Record<string, string>): string {
  const dir = tempDir('fullstop-warm-test-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, WARM_PROFILE, name)), { recursive: true });
    writeFileSync(path.join(dir, WARM_PROFILE, name), text);
  }
  writeFileSync(path.join(dir, WARM_WRAPS), firefox);
  writeFileSync(path.join(dir, WARM_WRAPPER), warmWrapperScript(dir, firefox), { mode: 0o755 });
  return dir;
}

describe('warm Firefox: the wrapper', () => {
  it("copies the template into the profile Playwright made for the launch, keeps Playwright's prefs, and starts Firefox with every argument", () => {
    const work = tempDir('fullstop-warm-wrapper-');
    // A Firefox that says what it was given and what its profile holds.
    const fake = path.join(work, "fire'fox");
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(path.join(work, 'args'))}\n`, { mode: 0o755 });
    const dir = templateAround(fake, { 'prefs.js': 'user_pref("from.template", 1);', 'startupCache/startupCache.8.little': 'compiled' });
    const profile = path.join(work, 'profile with space');
    mkdirSync(profile);
    writeFileSync(path.join(profile, 'user.js'), 'user_pref("from.playwright", 1);');

    const args = ['--remote-debugging-port=0', '--headless', '--profile', profile, '--no-remote'];
    execFileSync(path.join(dir, WARM_WRAPPER), args);

    expect(readFileSync(path.join(work, 'args'), 'utf8').trim().split('\n')).toEqual(args);
    expect(readFileSync(path.join(profile, 'startupCache/startupCache.8.little'), 'utf8')).toBe('compiled');
    expect(readFileSync(path.join(profile, 'prefs.js'), 'utf8')).toContain('from.template');
    expect(readFileSync(path.join(profile, 'user.js'), 'utf8')).toContain('from.playwright');
  });

  it('is used only for the Firefox it wraps, and only where the supervisor named a template', () => {
    const dir = templateAround('/usr/bin/firefox-esr', {});
    expect(firefoxExecutable('/usr/bin/firefox-esr', { [WARM_FIREFOX_VAR]: dir })).toBe(path.join(dir, WARM_WRAPPER));
    expect(firefoxExecutable('/opt/other/firefox', { [WARM_FIREFOX_VAR]: dir })).toBe('/opt/other/firefox');
    expect(firefoxExecutable('/usr/bin/firefox-esr', {})).toBe('/usr/bin/firefox-esr');
    expect(firefoxExecutable('/usr/bin/firefox-esr', { [WARM_FIREFOX_VAR]: path.join(dir, 'gone') })).toBe('/usr/bin/firefox-esr');
  });

  it('is asked for by browser tests whose engines name Firefox, and no other', () => {
    expect(startsFirefox({ kind: 'browser', options: { engines: ['chromium', 'firefox'] } })).toBe(true);
    expect(startsFirefox({ kind: 'browser', options: { engines: ['chromium'] } })).toBe(false);
    expect(startsFirefox({ kind: 'browser', options: {} })).toBe(false);
    expect(startsFirefox({ kind: 'accessibility', options: { engines: ['firefox'] } })).toBe(false);
  });

  it('is swept when its server was killed, and never while its server runs', () => {
    const under = tempDir('fullstop-warm-sweep-');
    // A process that has ended: its pid and start time, as its template's folder names them.
    const stat = execFileSync('sh', ['-c', 'cat /proc/$$/stat'], { encoding: 'utf8' });
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const dead = `${stat.split(' ')[0]}.${fields[19]}`;
    const folders = { dead: `fullstop-warm-firefox-${dead}-a1B2c3`, live: `fullstop-warm-firefox-${selfIdentity()}-d4E5f6`, other: 'fullstop-warm-test-x1' };
    for (const name of Object.values(folders)) {
      mkdirSync(path.join(under, name, WARM_PROFILE), { recursive: true });
      writeFileSync(path.join(under, name, WARM_PROFILE, 'prefs.js'), '');
    }
    expect(sweepDeadOwnersTemplates(under)).toBe(1);
    expect(readdirSync(under).sort()).toEqual([folders.live, folders.other].sort());
  });
});

// Firefox ESR from Debian's packages (README); without it nothing here can start.
describe.skipIf(!existsSync(DEFAULT_FIREFOX_PATH))('warm Firefox: the template the server makes', () => {
  let dir: string;

  it('is made in the background by a Firefox of the server that opened nothing: no session, no lock, read-only to others', async () => {
    expect(warmFirefoxFolder({ make: false })).toBeNull();
    expect(warmFirefoxFolder({ make: true })).toBeNull();
    dir = (await warmFirefoxMade())!;
    expect(dir).toBeTruthy();
    // The server removes it as it exits; a test worker may end otherwise.
    made.push(dir);
    expect(warmFirefoxFolder({ make: false })).toBe(dir);
    expect(readFileSync(path.join(dir, WARM_WRAPS), 'utf8')).toBe(DEFAULT_FIREFOX_PATH);
    const profile = readdirSync(path.join(dir, WARM_PROFILE));
    expect(profile).toEqual(expect.arrayContaining(['startupCache', 'prefs.js', 'extensions.json']));
    for (const left of ['lock', '.parentlock', 'user.js', 'sessionstore.jsonlz4', 'crashes']) expect(profile).not.toContain(left);
    const walk = (at: string): string[] => [at, ...(statSync(at).isDirectory() ? readdirSync(at).flatMap((n) => walk(path.join(at, n))) : [])];
    for (const file of walk(dir)) expect((statSync(file).mode & 0o022).toString(8), file).toBe('0');
  }, 150_000);

  // Another user than the server's, as every runner user is: switching needs root (CI and shipped servers are).
  it.skipIf(process.geteuid?.() !== 0)('is read by another user and never written by one', () => {
    const other = { uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })) };
    const as = (script: string) => spawnSync('/bin/sh', ['-c', script], { ...other, encoding: 'utf8' });
    const copy = path.join(tempDir('fullstop-warm-copy-'), 'p');
    execFileSync('chown', [`${other.uid}`, path.dirname(copy)]);
    expect(as(`cp -R '${path.join(dir, WARM_PROFILE)}' '${copy}'`).status).toBe(0);
    expect(as(`echo x > '${path.join(dir, WARM_PROFILE, 'prefs.js')}'`).status).not.toBe(0);
    expect(as(`touch '${path.join(dir, WARM_PROFILE, 'startupCache', 'left-by-an-attempt')}'`).status).not.toBe(0);
    expect(readdirSync(path.join(dir, WARM_PROFILE, 'startupCache'))).not.toContain('left-by-an-attempt');
  });

  it("starts the engine's own Firefox (jailed where it can be) on a copy of the template", async () => {
    const site = await startFixtureServer({ '/': (_req, res) => void res.end(html('Shop', '<h1>Shop</h1>')) }, (_req, res) => void res.writeHead(404).end());
    // The template as made, with one pref more that a page can see: the profile the launch used held it.
    const marked = tempDir('fullstop-warm-marked-');
    cpSync(path.join(dir, WARM_PROFILE), path.join(marked, WARM_PROFILE), { recursive: true });
    appendFileSync(path.join(marked, WARM_PROFILE, 'prefs.js'), '\nuser_pref("general.useragent.override", "fullstop-warm-profile");\n');
    writeFileSync(path.join(marked, WARM_WRAPS), DEFAULT_FIREFOX_PATH);
    writeFileSync(path.join(marked, WARM_WRAPPER), warmWrapperScript(marked, DEFAULT_FIREFOX_PATH), { mode: 0o755 });
    const saved = process.env[WARM_FIREFOX_VAR];
    process.env[WARM_FIREFOX_VAR] = marked;
    try {
      const guarded = await launchGuardedBrowser(createTargetGuard(localTarget(site.url)), await makeContext(), { engine: 'firefox', home: tempDir('fullstop-warm-home-') });
      try {
        const page = await guarded.browser.newPage();
        await page.goto(site.url);
        expect(await page.locator('h1').textContent()).toBe('Shop');
        expect(await page.evaluate(() => navigator.userAgent)).toBe('fullstop-warm-profile');
      } finally {
        await guarded.close();
      }
    } finally {
      if (saved === undefined) delete process.env[WARM_FIREFOX_VAR];
      else process.env[WARM_FIREFOX_VAR] = saved;
      await site.close();
    }
  }, 120_000);
});
