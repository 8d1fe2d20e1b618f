import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { launchGuardedBrowser } from '../src/lib/guarded-browser.ts';
import { createTargetGuard } from '../src/policy/target-guard.ts';
import { accessibilityRunner } from '../src/runners/accessibility/index.ts';
import { startHardenedServer } from './fixtures/hardened-server.ts';
import { startLateSpa } from './fixtures/late-spa.ts';
import { startPlantedServer } from './fixtures/planted-server.ts';
import { rebindingNetwork, startTwinServers } from './fixtures/rebinding.ts';
import { serverForSuite } from './fixtures/suite-server.ts';
import { localTarget, makeContext, testOf } from './helpers.ts';

describe('accessibility runner', () => {
  const planted = serverForSuite(startPlantedServer);
  const hardened = serverForSuite(startHardenedServer);

  it('fails the page with planted violations and passes the clean ones', async () => {
    const result = await accessibilityRunner.run(testOf('accessibility', { pages: ['/a11y', '/slow'] }), localTarget(planted.url), await makeContext());
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'accessibility') throw new Error('wrong summary');
    const [form, slow] = result.summary.pages;
    expect(form?.violations?.map((v) => [v.id, v.impact, v.nodes]).sort()).toEqual([
      ['document-title', 'serious', 1],
      ['image-alt', 'critical', 1],
      ['label', 'critical', 1],
    ]);
    expect(form).toMatchObject({ url: `${planted.url}/a11y`, passed: false, violationsByImpact: { critical: 2, serious: 1, moderate: 0, minor: 0 } });
    // Each rule says where (a selector per affected element), which standard it belongs to, and how to fix it.
    const byId = new Map(form?.violations?.map((v) => [v.id, v]));
    expect(byId.get('image-alt')).toMatchObject({ help: expect.stringMatching(/alternative text/i), targets: ['img'] });
    expect(byId.get('label')?.targets).toEqual([expect.stringContaining('input')]);
    expect(byId.get('document-title')?.targets).toEqual(['html']);
    for (const v of form?.violations ?? []) {
      expect(v.targets).toHaveLength(v.nodes);
      expect(v.tags).toContain('wcag2a');
      expect(v.tags?.some((t) => t.startsWith('cat.'))).toBe(false);
      expect(new URL(v.helpUrl ?? '').hostname).toBe('dequeuniversity.com');
    }
    expect(slow).toMatchObject({ passed: true, violationsByImpact: { critical: 0, serious: 0, moderate: 0, minor: 0 } });
    expect(result.totals).toEqual({ totalTests: 2, passedTests: 1, failedTests: 1, skippedTests: 0 });

    const lenient = await accessibilityRunner.run(
      testOf('accessibility', { pages: ['/a11y'], disableRules: ['image-alt', 'label'], failOnImpact: 'critical' }),
      localTarget(planted.url),
      await makeContext(),
    );
    expect(lenient.status).toBe('passed');
  });

  it('reaches a rebinding host only at the address the guard approved (Chromium through the policy proxy)', async () => {
    const twin = await startTwinServers();
    try {
      const network = rebindingNetwork('rebind.test');
      const result = await accessibilityRunner.run(
        testOf('accessibility', { pages: ['/', '/again'] }),
        { baseUrl: `http://rebind.test:${twin.port}/`, allowedOrigins: [], allowPrivateAddresses: false },
        await makeContext({ network }),
      );
      expect(result.error).toBeUndefined();
      expect(result.status).toBe('passed');
      expect(twin.publicHosts.filter((h) => h === `rebind.test:${twin.port}`).length).toBeGreaterThanOrEqual(2);
      expect(twin.privateHits).toBe(0);
      expect(network.calls).toBe(1);
    } finally {
      await twin.close();
    }
  });

  it('leaves pages no path around the proxy: WebRTC sends no UDP to the STUN server a page names', async () => {
    const udp = createSocket('udp4');
    let packets = 0;
    udp.on('message', () => packets++);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const stunPort = (udp.address() as AddressInfo).port;
    const guarded = await launchGuardedBrowser(createTargetGuard(localTarget(hardened.url)), await makeContext());
    try {
      const page = await guarded.browser.newPage();
      await page.goto(hardened.url);
      const candidates = await page.evaluate(async (port) => {
        const pc = new RTCPeerConnection({ iceServers: [{ urls: `stun:127.0.0.1:${port}` }] });
        pc.createDataChannel('probe');
        const found: string[] = [];
        pc.onicecandidate = (e) => {
          if (e.candidate) found.push(e.candidate.candidate);
        };
        await pc.setLocalDescription(await pc.createOffer());
        await new Promise((resolve) => setTimeout(resolve, 1500));
        pc.close();
        return found;
      }, stunPort);
      expect(candidates).toEqual([]);
      expect(packets).toBe(0);
    } finally {
      await guarded.close();
      udp.close();
    }
  });

  it('passes the hardened site', async () => {
    const result = await accessibilityRunner.run(testOf('accessibility', { pages: ['/', '/about'] }), localTarget(hardened.url), await makeContext());
    expect(result.status).toBe('passed');
  });
});

describe('accessibility of a page that renders late (decision 0089)', () => {
  const late = serverForSuite(startLateSpa);

  it('runs axe once the page is ready: it finds the image without alternative text rendered 1.8 s after load', async () => {
    const result = await accessibilityRunner.run(testOf('accessibility', { pages: ['/'] }), localTarget(late.url), await makeContext());
    expect(result.error).toBeUndefined();
    if (result.summary.kind !== 'accessibility') throw new Error('wrong summary');
    const [home] = result.summary.pages;
    expect(home?.violations?.map((v) => [v.id, v.impact, v.targets])).toEqual([['image-alt', 'critical', ['img']]]);
    expect(home?.notReady).toBeUndefined();
    expect(result.status).toBe('failed');
  });

  it('tests a hash route as a page of its own, loaded anew after the page of its document', async () => {
    // `/#/help` after `/` in the same tab would be a same-document navigation: no load, no response.
    const result = await accessibilityRunner.run(testOf('accessibility', { pages: ['/', '/#/help', '/#/faq'] }), localTarget(late.url), await makeContext());
    if (result.summary.kind !== 'accessibility') throw new Error('wrong summary');
    expect(result.summary.pages.map((p) => [new URL(p.url).hash, p.passed, p.error ?? null, (p.violations ?? []).map((v) => v.id)])).toEqual([
      ['', false, null, ['image-alt']],
      // The route's own view: Help has no image, so none without alternative text.
      ['#/help', true, null, []],
      ['#/faq', true, null, []],
    ]);
  });
});
