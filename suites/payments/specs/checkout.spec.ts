// A payment in a client's own spec: payWithCard types the catalogue's sandbox card for an outcome into the
// provider's card frames, submits, and answers the 3-D Secure challenge; the spec checks what the shop shows after.
// Each stage is a step of the report, with a screenshot attached (docs/payments.md).
import { expect, test } from '@playwright/test';
import { payWithCard } from '@fullstop/engine/payments';

test('a successful Stripe payment shows the order', async ({ page }) => {
  await page.goto('/checkout/stripe');
  await payWithCard(page, { provider: 'stripe', outcome: 'success' });
  await expect(page.getByText(/Thank you for your order\. Order #FS-\d+/)).toBeVisible();
});

test('a failed 3-D Secure challenge declines the payment', async ({ page }) => {
  await page.goto('/checkout/stripe');
  await payWithCard(page, { provider: 'stripe', outcome: '3ds-failed' });
  await expect(page.getByRole('alert')).toContainText('unable to authenticate');
  await expect(page.getByText(/Thank you/)).toHaveCount(0);
});
