import { describe, expect, it } from 'vitest';
import type { Finding } from '../types.ts';
import { countAlerts, groupAlerts } from './alerts.ts';

const f = (ruleId: string, name: string, risk: Finding['risk'], url: string, param?: string): Finding => ({ ruleId, name, risk, url, ...(param ? { param } : {}) });

// A seven-page site: one missing header on every page, an XSS in two parameters, a cookie twice.
const pages = ['/', '/a', '/b', '/c', '/d', '/e', '/f'].map((p) => `http://site.test${p}`);
const findings: Finding[] = [
  ...pages.map((url) => f('10021', 'X-Content-Type-Options Header Missing', 'Low', url)),
  ...pages.map((url) => f('10038', 'Content Security Policy (CSP) Header Not Set', 'Medium', url)),
  f('40012', 'Cross Site Scripting (Reflected)', 'High', 'http://site.test/search', 'q'),
  f('40012', 'Cross Site Scripting (Reflected)', 'High', 'http://site.test/find', 'term'),
  f('10010', 'Cookie No HttpOnly Flag', 'Low', 'http://site.test/', 'session'),
  f('10010', 'Cookie No HttpOnly Flag', 'Low', 'http://site.test/', 'tracking'),
  f('10027', 'Information Disclosure - Suspicious Comments', 'Informational', 'http://site.test/'),
];

describe('alerts as ZAP groups and counts them', () => {
  it('groups instances under one alert per rule, highest risk first, then by name', () => {
    const alerts = groupAlerts(findings);
    expect(alerts.map((a) => [a.ruleId, a.risk, a.instances.length])).toEqual([
      ['40012', 'High', 2],
      ['10038', 'Medium', 7],
      ['10010', 'Low', 2],
      ['10021', 'Low', 7],
      ['10027', 'Informational', 1],
    ]);
    expect(alerts[0]?.instances.map((i) => i.url)).toEqual(['http://site.test/find', 'http://site.test/search']);
  });

  it('counts alerts, not instances: 19 instances are 5 alerts', () => {
    expect(findings).toHaveLength(19);
    expect(countAlerts(findings)).toEqual({ High: 1, Medium: 1, Low: 2, Informational: 1, 'False Positives': 0 });
  });

  it('counts an alert under False Positives once any instance is marked, and at its risk while one is not', () => {
    const oneXss = (x: Finding) => x.ruleId === '40012' && x.param === 'q';
    expect(countAlerts(findings, oneXss)).toEqual({ High: 1, Medium: 1, Low: 2, Informational: 1, 'False Positives': 1 });
    const wholeRules = (x: Finding) => x.ruleId === '40012' || x.ruleId === '10021';
    expect(countAlerts(findings, wholeRules)).toEqual({ High: 0, Medium: 1, Low: 1, Informational: 1, 'False Positives': 2 });
  });
});
