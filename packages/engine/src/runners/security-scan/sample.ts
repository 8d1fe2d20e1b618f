import { sampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';

/** A weekly scan: alerts of every risk, one with two instances, and a false positive set aside. */
export function sample(): RunReport {
  return sampleReport({
    kind: 'security-scan',
    group: 'Security',
    testName: 'Weekly scan',
    status: 'failed',
    summary: {
      kind: 'security-scan',
      findings: [
        { ruleId: '10038', name: 'Content Security Policy (CSP) Header Not Set', risk: 'Medium', url: 'https://shop.acme.test/', description: 'Content Security Policy is an added layer of security that helps to detect and mitigate attacks such as XSS.', solution: 'Set the Content-Security-Policy header on every page.' },
        { ruleId: '10038', name: 'Content Security Policy (CSP) Header Not Set', risk: 'Medium', url: 'https://shop.acme.test/cart' },
        { ruleId: '40012', name: 'Cross Site Scripting (Reflected)', risk: 'High', url: 'https://shop.acme.test/search', param: 'q', evidence: '<script>alert(1)</script>', description: 'A reflected XSS lets an attacker run script in a visitor\'s browser.', solution: 'Encode output; validate input.' },
        { ruleId: '10021', name: 'X-Content-Type-Options Header Missing', risk: 'Low', url: 'https://shop.acme.test/static/app.js', evidence: '' },
      ],
    },
    falsePositives: [{ ruleId: '10096', name: 'Timestamp Disclosure', risk: 'Informational', url: 'https://shop.acme.test/', evidence: '1700000000' }],
  });
}
