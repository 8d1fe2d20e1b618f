import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, playwrightChromiumArgs } from '../src/lib/chromium.ts';
import { LOOK_ATTEMPTS, lookTwice } from '../src/survey/changing-elements.ts';
import { html, startFixtureServer } from './fixtures/fixture-server.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { CHROMIUM_PATH } from './helpers.ts';

/**
 * The survey's second look at a page (changing-elements.ts) when the page is closed under it, as a renderer that died
 * on a loaded machine closes it: the look is made once more, and only a second failure leaves the page without one.
 */
let browser: Browser;
/** How many of the coming page loads close every context of the browser (a page gone under the look). */
let closing = 0;
const site = serverForSuite(() =>
  startFixtureServer(
    {
      // A list that renders after its data, as a single-page app's does.
      '/': async (_req, res) => {
        if (closing > 0) {
          closing--;
          // The look may be closing a context itself at that moment (its visit failed): one closed already is closed.
          await Promise.all(browser.contexts().map((c) => c.close().catch(() => undefined)));
        }
        res.writeHead(200, { 'content-type': 'text/html' }).end(
          html('Pets', `<main><h1>Pets</h1><ul id="list"></ul></main><script>setTimeout(() => { document.getElementById('list').innerHTML = '<li>Rex</li><li>Tom</li>'; }, 200);</script>`),
        );
      },
    },
    (_req, res) => void res.writeHead(404).end(),
  ),
);

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: playwrightChromiumArgs(CHROMIUM_FLAGS) });
});
afterAll(async () => {
  await browser?.close();
});

describe('the survey looking twice at a page', () => {
  it('looks once more when the page was closed under its look, and finds the page still', async () => {
    closing = 1;
    site.resetCounters();
    const logs: string[] = [];
    const look = await lookTwice(browser, `${site.url}/`, { devices: ['desktop', 'phone'], signal: new AbortController().signal, log: (m, d) => logs.push(`${m} ${JSON.stringify(d)}`) });
    expect(look).toEqual({ masks: [], fullPage: true });
    expect(logs.filter((l) => l.includes('looking once more'))).toHaveLength(1);
    expect(logs.join('\n')).toMatch(/"device":"desktop","attempt":1,"error":"page\.goto/);
    // The closed visit, then the two visits of each device.
    expect(site.requestsByPath.get('/')).toBe(5);
  });

  it(`leaves the page without its look when it was closed ${LOOK_ATTEMPTS} times, and says so`, async () => {
    closing = LOOK_ATTEMPTS;
    site.resetCounters();
    const logs: string[] = [];
    const look = await lookTwice(browser, `${site.url}/`, { devices: ['desktop', 'phone'], signal: new AbortController().signal, log: (m, d) => logs.push(`${m} ${JSON.stringify(d)}`) });
    expect(look).toBeNull();
    expect(logs.at(-1)).toMatch(new RegExp(`could not be visited twice .*"attempt":${LOOK_ATTEMPTS}`));
    expect(site.requestsByPath.get('/')).toBe(LOOK_ATTEMPTS);
  });
});
