import { describe, expect, it } from 'vitest';
import { createTestClient } from './helpers/app.ts';
import { useListeningApp } from './helpers/cli.ts';


describe('fullstop schedule', () => {
  const fixture = useListeningApp();
  const { cli } = fixture;

  it('adds, lists, pauses, resumes and deletes a client’s schedule', async () => {
    const c = await createTestClient(fixture.app);
    const client = ['--client', c.clientId];
    expect((await cli(['schedule', 'list', ...client])).stdout.trim()).toBe('No schedules.');
    const added = await cli(['schedule', 'add', ...client, '--cron', '0 6 * * 1-5', '--tz', 'Europe/Paris']);
    expect(added.code, added.stderr).toBe(0);
    const id = /schedule (\S+) added/.exec(added.stdout)![1]!;
    const list = (await cli(['schedule', 'list', ...client])).stdout;
    expect(list).toContain(`${id}  0 6 * * 1-5  Europe/Paris  All tests  next `);
    expect((await cli(['schedule', 'pause', id, ...client])).stdout.trim()).toBe(`schedule ${id} paused`);
    expect((await cli(['schedule', 'list', ...client])).stdout).toContain('paused');
    expect((await cli(['schedule', 'resume', id, ...client])).stdout).toContain(`schedule ${id} resumed, next run `);
    expect((await cli(['schedule', 'delete', id, ...client])).stdout.trim()).toBe('schedule deleted');
    expect((await cli(['schedule', 'list', ...client])).stdout.trim()).toBe('No schedules.');
  });

  it('says what is wrong with a bad time zone and exits non-zero', async () => {
    const c = await createTestClient(fixture.app);
    const res = await cli(['schedule', 'add', '--client', c.clientId, '--cron', '0 6 * * *', '--tz', 'Moon/Base']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('timezone "Moon/Base" is not a known time zone');
  });
});
