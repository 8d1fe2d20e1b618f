import type { EngineCheck } from '@fullstop/contracts';
import { describe, expect, it } from 'vitest';
import { formatEngines } from './cli.ts';

const check = (over: Partial<EngineCheck>): EngineCheck => ({
  engine: 'chromium',
  title: 'Chromium',
  ok: true,
  version: '156.0',
  location: '/usr/bin/chromium',
  problem: null,
  install: 'apt-get install chromium-headless-shell (or chromium)',
  setting: 'CHROMIUM_PATH',
  kinds: ['browser'],
  ...over,
});

describe('fullstop engines', () => {
  it('lists a missing optional engine (Firefox) as optional, naming the tests that need it and how to install it', () => {
    const firefox = check({ engine: 'firefox', title: 'Firefox', ok: false, version: null, location: '/usr/bin/firefox-esr', problem: 'not installed at /usr/bin/firefox-esr', install: 'apt-get install -y firefox-esr', setting: null, optional: true });
    const lines = formatEngines({ status: 'ready', checkedAt: 'now', engines: [check({}), firefox] }, 'on this machine');
    expect(lines).toEqual([
      'Engines on this machine: ready (checked now)',
      '  ok       Chromium  156.0  /usr/bin/chromium  (browser)',
      '  missing  Firefox   not installed at /usr/bin/firefox-esr  (browser, optional: only tests that ask for it need it)',
      '  browser tests on Firefox cannot run until Firefox is installed: apt-get install -y firefox-esr',
    ]);
  });
});
