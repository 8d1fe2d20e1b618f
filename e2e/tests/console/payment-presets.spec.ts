import { opsClientPath, PAYMENT_CATALOGUE, paymentPresetsApiPaths, type PaymentPresetsResponse } from '@fullstop/contracts';
import { createClient, operatorToken } from '../../support/operator.ts';
import { expect, operatorPage, test } from '../../support/portal.ts';
import { shots } from '../../support/screenshots.ts';

test.describe('payment presets on the console’s client page', () => {
  test('an operator switches Stripe test mode on, sees the origins it opens, and switches it off again', async ({ browser, baseURL, request }) => {
    // Signing an operator in, and the screenshots when PORTAL_SCREENSHOTS asks for them, take most of it.
    test.setTimeout(60_000);
    const client = await createClient(request, { label: 'presets' });
    const ops = await operatorPage(browser, baseURL!, 'presets-ops', 'E2E Presets Operator');
    await ops.page.goto(opsClientPath(client.clientId));

    const card = ops.page.getByRole('region', { name: 'Payment providers' });
    const stripe = card.getByRole('switch', { name: 'Stripe test mode' });
    await expect(stripe).toHaveAttribute('aria-checked', 'false');
    await expect(card.getByRole('switch')).toHaveCount(3);
    await expect(card.getByRole('link', { name: 'Test cards on docs.stripe.com' })).toHaveAttribute('href', PAYMENT_CATALOGUE.stripe.docsUrl);

    await stripe.click();
    await expect(stripe).toHaveAttribute('aria-checked', 'true');
    await expect(card.getByRole('status')).toHaveText('Stripe test mode is on: its 5 origins are open to this client’s tests.');
    const origins = card.getByRole('list', { name: 'Origins Stripe test mode opens' }).getByRole('listitem');
    await expect(origins).toHaveText([...PAYMENT_CATALOGUE.stripe.origins]);
    await expect(card).toContainText('switched on by presets-ops-');
    await expect(card.getByRole('switch', { name: 'Braintree sandbox' })).toHaveAttribute('aria-checked', 'false');

    // The server holds it for this client, not as a page's state.
    const stored = await request.get(paymentPresetsApiPaths.list(client.clientId), { headers: { authorization: `Bearer ${operatorToken()}` } });
    expect(((await stored.json()) as PaymentPresetsResponse).presets.filter((p) => p.enabled).map((p) => p.provider)).toEqual(['stripe']);
    await shots(ops.page, 'ops-client-payment-providers');

    await stripe.click();
    await expect(stripe).toHaveAttribute('aria-checked', 'false');
    await expect(card.getByRole('status')).toHaveText('Stripe test mode is off: its origins are closed to this client’s tests.');
    await expect(card.getByRole('list', { name: 'Origins Stripe test mode opens' })).toHaveCount(0);
    await ops.context.close();
  });
});
