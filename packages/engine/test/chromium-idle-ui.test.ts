import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, IDLE_UI_FEATURES, playwrightChromiumArgs, playwrightChromiumFlags, withIdleUiOff } from '../src/lib/chromium.ts';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const featuresOf = (flags: readonly string[]) => flags.filter((f) => f.startsWith('--disable-features=')).map((f) => f.slice('--disable-features='.length).split(','));

describe("Chromium's idle UI off (bench/engine/README.md, \"Chromium's omnibox popup\")", () => {
  it("repeats the launcher's disabled features in the one --disable-features flag, last, with ours", () => {
    const args = withIdleUiOff(['--no-sandbox', '--disable-features=Mine'], ['--mute-audio', '--disable-features=Translate,MediaRouter']);
    expect(featuresOf(args)).toEqual([['Translate', 'MediaRouter', 'Mine', ...IDLE_UI_FEATURES]]);
    expect(args.at(-1)).toMatch(/^--disable-features=/);
    expect(args[0]).toBe('--no-sandbox');
    // Without the launcher's flags, its list could be lost: the arguments stay as they were.
    expect(withIdleUiOff(['--no-sandbox'], null)).toEqual(['--no-sandbox']);
  });

  it("finds Playwright's own flags for the version installed", () => {
    expect(featuresOf(playwrightChromiumFlags() ?? [])).toHaveLength(1);
  });

  it("starts Chromium without its omnibox popup's renderer, Playwright's disabled features kept", async () => {
    const targets = async (args: string[]) => {
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args });
      try {
        await (await browser.newPage()).goto('data:text/html,<h1>page</h1>');
        const cdp = await browser.newBrowserCDPSession();
        const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
        const { arguments: commandLine } = (await cdp.send('Browser.getBrowserCommandLine')) as { arguments: string[] };
        return { urls: targetInfos.map((t) => t.url), commandLine };
      } finally {
        await browser.close();
      }
    };
    // As Playwright starts it: the omnibox popup is a page of its own (the test's control: it fails if Chromium stops doing so).
    const before = await targets([...CHROMIUM_FLAGS]);
    expect(before.urls.some((u) => u.startsWith('chrome://omnibox-popup'))).toBe(true);

    const after = await targets(playwrightChromiumArgs(CHROMIUM_FLAGS));
    expect(after.urls.filter((u) => u.startsWith('chrome://'))).toEqual([]);
    // The last --disable-features is the one Chromium keeps: it still has every feature Playwright switches off.
    const kept = featuresOf(after.commandLine).at(-1) ?? [];
    for (const feature of featuresOf(playwrightChromiumFlags()!)[0]!) expect(kept).toContain(feature);
  }, 60_000);
});
