import { paths } from '@fullstop/contracts';
import { expect, loginThroughForm, test } from '../../support/portal.ts';
import { mailTo, resetLinkOf } from '../../support/outbox.ts';

test.describe('password reset', () => {
  test('the link of the reset mail sets a new password, once, and the new password logs in', async ({ page, client }) => {
    await page.goto(paths.login);
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await page.getByLabel('Email').fill(client.email);
    const code = await page.getByTestId('captcha-code').textContent();
    await page.getByLabel('Enter the code shown').fill(code ?? '');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('dialog')).toContainText('If account exists, you should have received an email with your password!');

    const link = resetLinkOf(await mailTo(client.email));
    await page.goto(link.pathname + link.search);
    // The token is taken in and dropped from the address bar.
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('password must be at least 10 characters')).toBeVisible();

    const fresh = 'a brand new passphrase';
    await page.getByLabel('New password', { exact: true }).fill(fresh);
    await page.getByLabel('Repeat the new password', { exact: true }).fill('something else entirely');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByText('The two passwords do not match.')).toBeVisible();

    await page.getByLabel('Repeat the new password', { exact: true }).fill(fresh);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByRole('dialog')).toContainText('Your password has been changed');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('form', { name: 'User Login' })).toBeVisible();

    // The link is single-use.
    await page.goto(link.pathname + link.search);
    await page.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await page.getByLabel('Repeat the new password', { exact: true }).fill('yet another passphrase');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByRole('alert')).toContainText('invalid or has expired');

    await loginThroughForm(page, { email: client.email, password: fresh });
  });
});
