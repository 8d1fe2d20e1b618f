import { apiPaths, paths } from '@fullstop/contracts';
import { DEMO, expect, storedAuth, test } from '../../support/portal.ts';

test.describe('login', () => {
  test('three failed logins bring a required captcha; the right one lets the client in', async ({ page }) => {
    await page.goto(paths.login);
    await expect(page.getByRole('heading', { name: 'User Login' })).toBeVisible();
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Password');
    const submit = page.getByRole('button', { name: 'Login', exact: true });
    const stranger = `nobody-${Date.now()}@e2e.test`;

    for (let attempt = 1; attempt <= 3; attempt++) {
      await expect(page.getByLabel('Enter the code shown')).toHaveCount(0);
      await email.fill(stranger);
      await password.fill('not-the-password');
      await submit.click();
      await expect(page.getByRole('alert')).toHaveText('Login failed. Please check your email and password.');
    }

    const captchaInput = page.getByLabel('Enter the code shown');
    await expect(captchaInput).toBeVisible();
    const code = (await page.getByTestId('captcha-code').textContent()) ?? '';
    expect(code).toMatch(/^[A-Za-z0-9]{6}$/);

    // The captcha is required even with the right password.
    await email.fill(DEMO.email);
    await password.fill(DEMO.password);
    await captchaInput.fill(code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA');
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('CAPTCHA is incorrect. Please try again.');
    expect((await storedAuth(page)).accessToken).toBeNull();

    await captchaInput.fill((await page.getByTestId('captcha-code').textContent()) ?? '');
    await submit.click();
    const popup = page.getByRole('dialog');
    await expect(popup).toContainText('Login successful!');
    const stored = await storedAuth(page);
    expect(stored.isAuthenticated).toBe('true');
    expect(stored.accessToken).toBeTruthy();
    expect(stored.refreshToken).toBeTruthy();
    expect(JSON.parse(stored.userData ?? '{}')).toMatchObject({ email: DEMO.email });

    await popup.getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(/^Welcome to your Dashboard, \S/)).toBeVisible();
  });

  test('the form checks the email format and a missing password before calling the server', async ({ page }) => {
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().endsWith(apiPaths.login)) calls++;
    });
    await page.goto(paths.login);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(page.getByText('Password is required.')).toBeVisible();
    expect(calls).toBe(0);
  });

  test('links to the contact form to register', async ({ page }) => {
    await page.goto(paths.login);
    await expect(page.getByText("Don't have an account?")).toBeVisible();
    await page.getByRole('link', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/contact-us#form-section$/);
  });

  test('forgot password: its own captcha, the empty-email message, the confirmation, and Back', async ({ page }) => {
    await page.goto(paths.login);
    await page.getByLabel('Email').fill('x@e2e.test');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('alert')).toBeVisible();

    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    const submit = page.getByRole('button', { name: 'Reset Password' });
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Please enter your email.');

    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Enter the code shown').fill('wrong!');
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('CAPTCHA is incorrect. Please try again.');

    const reset = page.waitForRequest((r) => r.url().endsWith(apiPaths.forgotPassword) && r.method() === 'POST');
    await page.getByLabel('Enter the code shown').fill((await page.getByTestId('captcha-code').textContent()) ?? '');
    await submit.click();
    expect((await reset).postDataJSON()).toEqual({ email: DEMO.email });
    await expect(page.getByRole('dialog')).toContainText('If account exists, you should have received an email with your password!');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('heading', { name: 'User Login' })).toBeVisible();

    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', { name: 'User Login' })).toBeVisible();
  });
});
