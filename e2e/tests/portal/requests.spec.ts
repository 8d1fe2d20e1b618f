import { apiPaths, paths } from '@fullstop/contracts';
import { apiSession, DEMO, expect, test } from '../../support/portal.ts';

test.describe('requests', () => {
  test('a client sends a request and sees it listed as new, opens its thread and replies; another client never sees it', async ({ clientPage: page, request }) => {
    await page.goto(paths.requests);
    await expect(page.getByText('No requests yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByText('Title must be at least 3 characters.')).toBeVisible();

    await page.getByLabel('Type').selectOption({ label: 'Free retest' });
    await page.getByLabel('Title').fill('Retest the checkout fix');
    await page.getByLabel('Details').fill('Fixed in release 2.4, deployed today.');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('status')).toHaveText('Request sent. We will get back to you within 48 hours.');
    const item = page.getByRole('listitem').filter({ hasText: 'Retest the checkout fix' });
    await expect(item).toContainText('Free retest');
    await expect(item).toContainText('New');
    await expect(page.getByLabel('Title')).toHaveValue('');

    // The thread, within the page: a reply is checked before it goes, then sent.
    await item.getByRole('button', { name: /Retest the checkout fix/ }).click();
    await expect(page).toHaveURL(/\?id=/);
    await expect(page.getByRole('heading', { name: 'Retest the checkout fix' })).toBeVisible();
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByRole('alert')).toHaveText('The reply is empty.');
    await page.getByLabel('Your reply').fill('The fix is live on staging too.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByRole('status')).toHaveText('Reply sent. The QA team has been notified.');
    await expect(page.getByText('The fix is live on staging too.')).toBeVisible();
    await page.getByRole('button', { name: '← All requests' }).click();
    await expect(page.getByRole('heading', { name: 'Your requests' })).toBeVisible();

    // Tenant isolation, through the API with the demo client's own session.
    const { accessToken } = await apiSession(request, DEMO);
    const theirs = await request.get(apiPaths.requests, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(((await theirs.json()) as { title: string }[]).map((r) => r.title)).not.toContain('Retest the checkout fix');
  });
});
