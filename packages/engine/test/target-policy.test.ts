import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { TargetPolicyError } from '../src/errors.ts';
import { isPrivateAddress } from '../src/policy/private-address.ts';
import { createTargetGuard } from '../src/policy/target-guard.ts';
import { runners } from '../src/runners/index.ts';
import { TEST_KINDS, type TestKind } from '../src/types.ts';
import { makeContext } from './helpers.ts';

const publicTarget = { baseUrl: 'https://203.0.113.10/shop/', allowedOrigins: ['https://198.51.100.7:8443'], allowPrivateAddresses: false };

describe('target policy', () => {
  it('knows loopback, private, link-local and mapped addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['203.0.113.10', '8.8.8.8', '2001:db8::1', '::ffff:8.8.8.8', '172.32.0.1']) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
  });

  it('allows the website origin and added origins, and nothing else', async () => {
    const guard = createTargetGuard(publicTarget);
    expect((await guard.check('/cart?x=1')).href).toBe('https://203.0.113.10/cart?x=1');
    expect((await guard.check('https://198.51.100.7:8443/api')).href).toBe('https://198.51.100.7:8443/api');
    expect(await guard.refusal('https://198.51.100.7/api')).toBe('origin https://198.51.100.7 is not the target\'s website or an allowed origin');
    expect(await guard.refusal('http://203.0.113.10/')).toContain('is not the target');
    expect(await guard.refusal('file:///etc/passwd')).toBe('protocol file: is not http(s)');
    await expect(guard.check('https://evil.example/')).rejects.toBeInstanceOf(TargetPolicyError);
  });

  it('resolves names before judging them, and lets a demo target through when allowed', async () => {
    const local = createTargetGuard({ baseUrl: 'http://localhost:3000', allowedOrigins: [], allowPrivateAddresses: false });
    expect(await local.refusal('/')).toMatch(/^host localhost resolves to the private address (127\.0\.0\.1|::1)$/);
    const metadata = createTargetGuard({ baseUrl: 'http://169.254.169.254', allowedOrigins: [], allowPrivateAddresses: false });
    expect(await metadata.refusal('/latest/meta-data')).toBe('host 169.254.169.254 resolves to the private address 169.254.169.254');
    const demo = createTargetGuard({ baseUrl: 'http://localhost:3000', allowedOrigins: [], allowPrivateAddresses: true });
    expect(await demo.refusal('/')).toBeNull();
  });

  it('has a runner for every kind, and each network runner refuses a private target before any work', async () => {
    expect(Object.keys(runners).sort()).toEqual([...TEST_KINDS].sort());
    const target = { baseUrl: 'http://127.0.0.1:9/', allowedOrigins: [], allowPrivateAddresses: false };
    const options: Partial<Record<TestKind, Record<string, unknown>>> = { api: { requests: [{ path: '/' }] } };
    for (const kind of TEST_KINDS.filter((k) => k !== 'mobile-static')) {
      const test = { name: kind, group: 'g', kind, options: options[kind] ?? {}, suiteDir: tmpdir() };
      const result = await runners[kind].run(test, target, await makeContext());
      expect([kind, result.status, result.errorCode]).toEqual([kind, 'error', 'target_policy']);
    }
  });
});
