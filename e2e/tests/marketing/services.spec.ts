import { paths } from '@fullstop/contracts';
import { expect, open, test } from './fixtures.ts';

test('the web and mobile cards list every service of the spec', async ({ page }) => {
  await open(page, paths.services);
  const web = page.getByRole('article', { name: 'Web application testing' });
  const mobile = page.getByRole('article', { name: 'Mobile application testing' });
  for (const item of [
    'Functionality and usability',
    'Performance',
    'Accessibility to WCAG',
    'Security',
    'Load',
    'API',
    'Automated regression',
    'Compatibility across devices, OS and networks',
  ]) {
    await expect(web.getByRole('listitem').filter({ has: page.getByText(item, { exact: true }) })).toHaveCount(1);
  }
  for (const item of ['Functionality and usability', 'Performance', 'Browser testing on mobile', 'Automated UI testing']) {
    await expect(mobile.getByRole('listitem').filter({ has: page.getByText(item, { exact: true }) })).toHaveCount(1);
  }
  await expect(web.getByRole('listitem')).toHaveCount(8);
  await expect(mobile.getByRole('listitem')).toHaveCount(4);
});
