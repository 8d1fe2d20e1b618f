import { paths } from '@fullstop/contracts';
import { collectPageProblems, enforceStrictStyleCsp } from '../../support/page-problems.ts';
import { expect, open, PUBLIC_ROUTES, test } from './fixtures.ts';

/**
 * The public site needs no inline styles: prerendered HTML carries no style attributes and nothing injects
 * <style>. Served with style-src 'self' only, no page may report a CSP violation, whether the visitor has
 * answered the cookie popup or not.
 */
for (const consented of [true, false]) {
  test.describe(consented ? 'a returning visitor' : 'a first-time visitor', () => {
    test.use({ consented });

    test('every public page works under a style-src without unsafe-inline', async ({ page, context }) => {
      await enforceStrictStyleCsp(context);
      const problems = collectPageProblems(page);
      for (const route of [...PUBLIC_ROUTES, '/no-such-page']) {
        await open(page, route);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      }
      // The contact form's phone widget loads after hydration and brings its own stylesheet.
      await open(page, paths.contactUs);
      await expect(page.locator('.PhoneInputCountrySelect')).toHaveCount(1);
      expect(problems).toEqual([]);
    });
  });
}
