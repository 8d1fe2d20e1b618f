import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../../store/store.ts';
import { ClientMobileDevices } from './client-mobile-devices.tsx';

const CLIENT = '0b6f2a52-63a5-4d1c-8d0e-6f3f4c2f9a10';
const ARN = 'arn:aws:devicefarm:us-west-2:123456789012:project:5e01a8c7-c861-4c0a-b1d5-12345EXAMPLE';
const TESTGRID_ARN = 'arn:aws:devicefarm:us-west-2:123456789012:testgrid-project:8d3c1c55-0f4a-4c3b-9c2e-12345EXAMPLE';

function reply(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The server: no provider yet; a PUT answers the provider it was given (its key as a hint). */
function serverWithNoProvider() {
  const puts: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
      if (method === 'PUT') {
        const body = (input instanceof Request ? await input.json() : JSON.parse(String(init?.body))) as Record<string, unknown>;
        puts.push(body);
        const { accessKey, ...rest } = body;
        const api = 'https://devicefarm.us-west-2.amazonaws.com';
        return reply({ provider: { region: null, capabilities: null, ...rest, url: api, apiUrl: api, accessKeyHint: `••••${String(accessKey).slice(-4)}`, updatedAt: '2026-11-26T18:00:00.000Z' } });
      }
      return reply({ provider: null });
    }),
  );
  return puts;
}

/** A long value as a person pastes it: typing 60 characters key by key takes seconds on a loaded machine. */
async function paste(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, value: string) {
  await user.click(field);
  await user.paste(value);
}

describe('the console’s Mobile devices card', () => {
  it('sets AWS Device Farm: its project ARN, access key ID and secret, checked before anything is sent', async () => {
    const puts = serverWithNoProvider();
    render(
      <Provider store={createPortalStore()}>
        <MemoryRouter>
          <ClientMobileDevices clientId={CLIENT} />
        </MemoryRouter>
      </Provider>,
    );
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Set the device provider' });
    await user.selectOptions(within(form).getByLabelText('Provider'), 'devicefarm');
    // Device Farm has no hub URL: each device's endpoint is its session's.
    expect(within(form).queryByLabelText('Appium URL')).toBeNull();
    expect(within(form).queryByLabelText('Hub URL (optional)')).toBeNull();

    await paste(user, within(form).getByLabelText('Project ARN'), 'arn:aws:devicefarm:eu-west-1:123:project:x');
    // Browser tests' cloud cells: a desktop browser testing project, and a cap of cloud minutes per run.
    await paste(user, within(form).getByLabelText('Desktop browser project ARN (optional)'), ARN);
    await user.type(within(form).getByLabelText('Cloud minutes per run (optional)'), '2.5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('The desktop browser project ARN looks like arn:aws:devicefarm:us-west-2:123456789012:testgrid-project:<id>.')).toBeTruthy();
    expect(within(form).getByText('Enter a whole number of minutes from 0 to 100000, or leave it empty for no cap.')).toBeTruthy();
    expect(await within(form).findByText('The project ARN looks like arn:aws:devicefarm:us-west-2:123456789012:project:<id>.')).toBeTruthy();
    expect(within(form).getByText('Enter the AWS access key ID.')).toBeTruthy();
    expect(within(form).getByText('Enter the AWS secret access key.')).toBeTruthy();
    expect(puts).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Project ARN'));
    await paste(user, within(form).getByLabelText('Project ARN'), ARN);
    await user.clear(within(form).getByLabelText('Desktop browser project ARN (optional)'));
    await paste(user, within(form).getByLabelText('Desktop browser project ARN (optional)'), TESTGRID_ARN);
    await user.clear(within(form).getByLabelText('Cloud minutes per run (optional)'));
    await user.type(within(form).getByLabelText('Cloud minutes per run (optional)'), '30');
    await paste(user, within(form).getByLabelText('Access key ID'), 'AKIAFULLSTOPTEST0001');
    await paste(user, within(form).getByLabelText('Secret access key (write-only)'), 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYsecret');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Device provider saved.')).toBeTruthy();
    expect(puts).toEqual([
      { kind: 'devicefarm', url: null, projectArn: ARN, testGridProjectArn: TESTGRID_ARN, cloudMinutesPerRun: 30, apiUrl: null, username: 'AKIAFULLSTOPTEST0001', capabilities: null, accessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYsecret' },
    ]);
  });
});
