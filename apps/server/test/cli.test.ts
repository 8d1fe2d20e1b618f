import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { login } from './helpers/app.ts';
import { CLI_BIN as BIN, useListeningApp } from './helpers/cli.ts';

// Rejects on a failing exit, with its code and output: what these tests match.
const run = promisify(execFile);

describe('fullstop CLI against a listening server', () => {
  const fixture = useListeningApp();
  const cli = (...args: string[]) =>
    run(process.execPath, [BIN, '--server', fixture.server, '--data-dir', fixture.app.paths.dataDir, ...args], { timeout: 30_000 });

  it('creates a client (JSON), lists it, adds a user who can log in', async () => {
    const created = JSON.parse(
      (await cli('client', 'create', '--name', 'Acme', '--website', 'https://acme.test', '--email', 'owner@acme.test', '--password', 'acme password 1', '--json')).stdout,
    ) as { clientId: string; userId: string; apiKeyMasked: string };
    // Operators see keys masked; the whole key takes reveal-key, which the server audits.
    expect(created.apiKeyMasked).toMatch(/^fsk_…[A-Za-z0-9_-]{4}$/);
    expect(created).not.toHaveProperty('apiKey');
    const apiKey = (await cli('client', 'reveal-key', created.clientId)).stdout.trim();
    expect(apiKey).toMatch(/^fsk_[A-Za-z0-9_-]{40,}$/);
    expect(apiKey.endsWith(created.apiKeyMasked.slice(-4))).toBe(true);
    const profile = await fixture.app.inject({ method: 'GET', url: `/clientProfile/${created.clientId}`, headers: { 'x-api-key': apiKey } });
    expect(profile.json()).toMatchObject({ clientName: 'Acme', website: 'https://acme.test' });

    const list = (await cli('client', 'list')).stdout;
    expect(list).toContain(created.clientId);
    expect(list).toContain(created.apiKeyMasked);
    expect(list).not.toContain(apiKey);
    expect(list).toContain('Acme');

    const user = (await cli('user', 'create', '--client', created.clientId, '--email', 'dev@acme.test', '--password', 'dev password 12')).stdout;
    expect(user).toMatch(/user id: \S+/);
    const session = await login(fixture.app, 'dev@acme.test', 'dev password 12');
    expect(session.userData.clientId).toBe(created.clientId);
  }, 120_000);

  it('prints the text form and fails clearly', async () => {
    // Independent runs side by side: each CLI start costs seconds on a busy machine.
    const text = cli('client', 'create', '--name', 'Beta', '--website', 'https://beta.test', '--email', 'b@beta.test', '--password', 'beta password 1');
    const dup = cli('client', 'create', '--name', 'Acme', '--website', 'https://acme.test', '--email', 'owner@acme.test', '--password', 'acme password 1');
    const badToken = run(process.execPath, [BIN, '--server', fixture.server, '--token', 'wrong', 'client', 'list'], { timeout: 30_000 });
    const down = run(process.execPath, [BIN, '--server', 'http://127.0.0.1:1', '--token', 'x', 'client', 'list'], { timeout: 30_000 });
    await Promise.all([
      expect(text).resolves.toMatchObject({ stdout: expect.stringMatching(/client id: .+\nuser id: .+\nAPI key: +fsk_….{4} /) }),
      expect(dup).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('already exists') }),
      expect(badToken).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('401') }),
      expect(down).rejects.toMatchObject({ stderr: expect.stringContaining('Cannot reach the Fullstop server') }),
    ]);
  }, 120_000);
});
