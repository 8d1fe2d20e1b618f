import { sampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';

/** Accessibility of three pages: violations by impact, one page that passes, one that did not load. */
export function sample(): RunReport {
  return sampleReport({
    kind: 'accessibility',
    testName: 'Accessibility of key pages',
    status: 'failed',
    summary: {
      kind: 'accessibility',
      pages: [
        {
          url: 'https://shop.acme.test/',
          passed: false,
          violationsByImpact: { critical: 1, serious: 1, moderate: 0, minor: 0 },
          violations: [
            { id: 'image-alt', impact: 'critical', help: 'Images must have alternative text', nodes: 3, targets: ['img.hero', '.card:nth-child(2) > img', '#logo'], tags: ['cat.text-alternatives', 'wcag2a', 'wcag111', 'section508'], helpUrl: 'https://dequeuniversity.com/rules/axe/4.11/image-alt' },
            { id: 'color-contrast', impact: 'serious', help: 'Elements must meet minimum color contrast ratio thresholds', nodes: 12, targets: ['.price', '.footer a'], tags: ['wcag2aa', 'wcag143'] },
          ],
        },
        {
          url: 'https://shop.acme.test/cart',
          passed: true,
          violationsByImpact: { critical: 0, serious: 0, moderate: 0, minor: 1 },
          violations: [{ id: 'region', impact: 'minor', help: 'All page content should be contained by landmarks', nodes: 1, tags: ['best-practice'] }],
        },
        { url: 'https://shop.acme.test/gone', passed: false, violationsByImpact: {}, violations: [], error: 'page answered 404' },
      ],
    },
  });
}
