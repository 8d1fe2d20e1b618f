import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors.ts';
import { parseTestInput } from '../../lib/options.ts';
import { capabilitiesOf } from './index.ts';
import { mobileUiInput, type MobileUiOptions } from './options.ts';

const parse = (options: Record<string, unknown>): MobileUiOptions => parseTestInput(mobileUiInput, { name: 't', group: 'G', kind: 'mobile-ui', options }).options;
const problem = (options: Record<string, unknown>): string | null => {
  try {
    parse(options);
    return null;
  } catch (error) {
    if (error instanceof ValidationError) return `${error.field}: ${error.reason}`;
    throw error;
  }
};

describe('mobile-ui options', () => {
  it('takes spec files, a platform and devices, with bounded timeouts', () => {
    expect(parse({ specs: 'mobile/*.spec.ts', platform: 'android' })).toMatchObject({ devices: [{ capabilities: {} }], stepTimeoutSeconds: 60, testTimeoutSeconds: 600 });
    expect(problem({ platform: 'android' })).toMatch(/^options\.specs: /);
    expect(problem({ specs: '../x.spec.ts', platform: 'ios' })).toBe('options.specs: must be a glob inside the suite folder');
    expect(problem({ specs: 'a.spec.ts', platform: 'ios', stepTimeoutSeconds: 0 })).toMatch(/^options\.stepTimeoutSeconds: /);
  });

  it('bounds the devices like the compatibility matrix, and never lets a suite name the app', () => {
    const devices = Array.from({ length: 13 }, (_, i) => ({ capabilities: { deviceName: `Pixel ${i}` } }));
    expect(problem({ specs: 'a.spec.ts', platform: 'android', devices })).toBe('options.devices: a test may list at most 12 devices: split it in two tests');
    expect(problem({ specs: 'a.spec.ts', platform: 'android', capabilities: { app: '/etc/passwd' } })).toBe("options.capabilities.app: the app is the client's uploaded build for the test's platform: leave app out");
  });

  it("prefixes Appium's capabilities, keeps W3C and vendor ones, and always sets the uploaded app", () => {
    const options = parse({ specs: 'a.spec.ts', platform: 'ios', capabilities: { automationName: 'XCUITest' }, devices: [{ capabilities: { deviceName: 'iPhone 15', platformVersion: '17.4' } }] });
    const caps = capabilitiesOf({ endpoint: { url: 'https://hub.example/wd/hub', capabilities: { 'bstack:options': { projectName: 'Acme' } } }, options, device: options.devices[0]!, app: '/builds/app.ipa' });
    expect(caps).toEqual({
      platformName: 'iOS',
      'appium:newCommandTimeout': 120,
      'bstack:options': { projectName: 'Acme' },
      'appium:automationName': 'XCUITest',
      'appium:deviceName': 'iPhone 15',
      'appium:platformVersion': '17.4',
      'appium:app': '/builds/app.ipa',
    });
    // The provider (an operator's setting) may name the app: one already in its storage, or the fake driver's XML app.
    const named = capabilitiesOf({ endpoint: { url: 'http://127.0.0.1:4723/', capabilities: { app: '/srv/fake/app.xml' } }, options, device: options.devices[0]!, app: '/builds/app.ipa' });
    expect(named['appium:app']).toBe('/srv/fake/app.xml');
  });
});
