import { describe, expect, it } from 'vitest';
import { createTestClient } from './helpers/app.ts';
import { useListeningApp } from './helpers/cli.ts';

const VALUE = 'cli secret value 9f3a';

describe('fullstop secrets', () => {
  const fixture = useListeningApp();
  const { cli } = fixture;

  it('sets a secret from standard input, lists names without values, deletes it', async () => {
    const c = await createTestClient(fixture.app);
    const set = await cli(['secrets', 'set', 'password', '--client', c.clientId], `${VALUE}\n`);
    expect(set.stdout.trim()).toBe('secret "password" set');

    const list = await cli(['secrets', 'list', '--client', c.clientId]);
    expect(list.stdout).toMatch(/^password {2}set \d{4}-\d\d-\d\dT/m);
    expect(list.stdout + list.stderr).not.toContain(VALUE);
    const json = JSON.parse((await cli(['secrets', 'list', '--client', c.clientId, '--json'])).stdout) as { secrets: { name: string }[] };
    expect(json.secrets.map((s) => s.name)).toEqual(['password']);

    expect((await cli(['secrets', 'delete', 'password', '--client', c.clientId])).stdout.trim()).toBe('secret "password" deleted');
    expect((await cli(['secrets', 'list', '--client', c.clientId])).stdout.trim()).toBe('No secrets set.');
  }, 120_000);

  it('refuses an empty value and says why a short one is refused', async () => {
    const c = await createTestClient(fixture.app);
    const empty = await cli(['secrets', 'set', 'token', '--client', c.clientId], '');
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toContain('no value on standard input');
    const short = await cli(['secrets', 'set', 'token', '--client', c.clientId], 'abc');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('value must be at least 4 characters');
  }, 120_000);
});
