import { apiPaths, paths } from '@fullstop/contracts';
import { apiSession, DEMO, expect, test } from '../../support/portal.ts';

test.describe('requests', () => {
  test('a client sends a request and sees it listed as open; another client never sees it', async ({ clientPage: page, request }) => {
    await page.goto(paths.requests);
    await expect(page.getByText('No requests yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByText('Title must be at least 3 characters.')).toBeVisible();

    await page.getByLabel('Type').selectOption({ label: 'Free retest (satisfaction guarantee)' });
    await page.getByLabel('Title').fill('Retest the checkout fix');
    await page.getByLabel('Details').fill('Fixed in release 2.4, deployed today.');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('status')).toHaveText('Request sent. We will get back to you within 48 hours.');
    const item = page.getByRole('listitem').filter({ hasText: 'Retest the checkout fix' });
    await expect(item).toContainText('Free retest (satisfaction guarantee)');
    await expect(item).toContainText('Open');
    await expect(page.getByLabel('Title')).toHaveValue('');

    // Tenant isolation, through the API with the demo client's own session.
    const { accessToken } = await apiSession(request, DEMO);
    const theirs = await request.get(apiPaths.requests, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(((await theirs.json()) as { title: string }[]).map((r) => r.title)).not.toContain('Retest the checkout fix');
  });
});
