import { sampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';

/** A sign-in flow on a Pixel that fails at "taps Pay now": steps, a screenshot per step, the page source at the failure. */
export function sample(): RunReport {
  const source = '<hierarchy><android.widget.FrameLayout><android.widget.TextView text="Your cart" resource-id="cart-title"/></android.widget.FrameLayout></hierarchy>';
  return sampleReport({
    kind: 'mobile-ui',
    group: 'Mobile',
    testName: 'Checkout on Android',
    status: 'failed',
    totals: { totalTests: 3, passedTests: 2, failedTests: 1, skippedTests: 0 },
    summary: {
      kind: 'mobile-ui',
      devices: [
        { label: 'Pixel 8 (14)', platformName: 'Android', deviceName: 'Pixel 8', platformVersion: '14', appVersion: '2.4.1', coldStartMs: 3_412, memoryKb: 182_344, cpuPercent: 12, performanceNote: null,
          sessionId: '22dbfb187486090d974a11ac91t65722988e0705',
          providerLinks: [
            { label: 'Session on BrowserStack', url: 'https://app-automate.browserstack.com/builds/g0726012b6rb0a4c79122d6048c7b8767677ad61/sessions/22dbfb187486090d974a11ac91t65722988e0705' },
            { label: 'Video', url: 'https://app-automate.browserstack.com/sessions/22dbfb187486090d974a11ac91t65722988e0705/video' },
            { label: 'Appium log', url: 'https://api.browserstack.com/app-automate/builds/g0726012b6rb0a4c79122d6048c7b8767677ad61/sessions/22dbfb187486090d974a11ac91t65722988e0705/appiumlogs' },
            { label: 'Device log', url: 'https://api.browserstack.com/app-automate/builds/g0726012b6rb0a4c79122d6048c7b8767677ad61/sessions/22dbfb187486090d974a11ac91t65722988e0705/devicelogs' },
          ],
        },
      ],
      cases: [
        { name: 'sign-in.spec.ts › Sign in › shows the welcome text', status: 'passed', durationMs: 640, screenshot: 'mobile-ui/device-1/001.png' },
        { name: 'sign-in.spec.ts › Sign in › types an email and taps Sign in', status: 'passed', durationMs: 1_210, steps: [{ title: 'elementSendKeys "ada@acme.test"', durationMs: 402 }, { title: 'elementClick', durationMs: 188 }], screenshot: 'mobile-ui/device-1/002.png' },
        {
          name: 'checkout.spec.ts › Checkout › taps Pay now',
          status: 'failed',
          durationMs: 10_044,
          error: 'Error: Can\'t call click on element with selector "~pay-now" because element wasn\'t found',
          screenshot: 'mobile-ui/device-1/003.png',
        },
      ],
      pageSources: [{ case: 'checkout.spec.ts › Checkout › taps Pay now', path: 'mobile-ui/device-1/003-page-source.xml', excerpt: source, truncated: false }],
    },
  });
}
