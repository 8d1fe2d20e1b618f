import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseWapitiReport, type WapitiEntry } from './wapiti-report.ts';
import { WAPITI_CATEGORIES, ZAP_RULES, zapRuleFor } from './zap-rules.ts';

const entry = (info: string, request = 'GET /x?p=1 HTTP/1.1'): WapitiEntry => ({ method: 'GET', path: '/x', info, level: 1, parameter: 'p', http_request: request });
const rule = (category: string, info: string, request?: string) => {
  const r = zapRuleFor(category, entry(info, request));
  return r && [r.id, r.name, r.risk];
};

describe("wapiti's categories under ZAP's rules", () => {
  it('gives each kind of flaw the issue names its ZAP plugin id and ZAP risk', () => {
    expect(rule('Cross Site Scripting', 'XSS vulnerability found via injection in the parameter q')).toEqual(['40012', 'Cross Site Scripting (Reflected)', 'High']);
    expect(rule('Cross Site Scripting', 'Permanent XSS vulnerability found via injection in the parameter message')).toEqual(['40014', 'Cross Site Scripting (Persistent)', 'High']);
    expect(rule('SQL Injection', 'SQL Injection (DMBS: MySQL) via injection in the parameter id')).toEqual(['40018', 'SQL Injection', 'High']);
    expect(rule('Path Traversal', 'Linux local file disclosure vulnerability via injection in the parameter name')).toEqual(['6', 'Path Traversal', 'High']);
    expect(rule('Open Redirect', 'Open Redirect via injection in the parameter to')).toEqual(['20019', 'External Redirect', 'High']);
    expect(rule('Command execution', 'Command execution via injection in the parameter host')).toEqual(['90020', 'Remote OS Command Injection', 'High']);
    expect(rule('CRLF Injection', 'CRLF Injection via injection in the parameter lang')).toEqual(['40003', 'CRLF Injection', 'Medium']);
  });

  it("names blind SQL injection after the database whose sleep answered, as ZAP's time-based rules do", () => {
    const blind = (payload: string) => rule('Blind SQL Injection', 'Blind SQL vulnerability via injection in the parameter id', `GET /x?id=${encodeURIComponent(payload)} HTTP/1.1`)?.[0];
    expect(blind("' or sleep(7)#1")).toBe('40019');
    expect(blind('1 or benchmark(10000000,MD5(1))#1')).toBe('40019');
    expect(blind("' or pg_sleep(7)--1")).toBe('40022');
    expect(blind(";waitfor delay '0:0:7'--1")).toBe('40027');
    expect(blind("';d=new Date();do{cd=new Date();}while(cd-d<10000);//")).toBe('40033');
    expect(blind('something else')).toBe('40018');
  });

  it('tells apart what one wapiti category holds: XPath and LDAP in sql, Shellshock in exec, the headers', () => {
    expect(rule('SQL Injection', 'XPath Injection via injection in the parameter q')?.[0]).toBe('90021');
    expect(rule('SQL Injection', 'LDAP Injection via injection in the parameter q')?.[0]).toBe('40015');
    expect(rule('Command execution', 'URL http://x/cgi-bin/a seems vulnerable to Shellshock attack')?.[0]).toBe('10048');
    expect(rule('HTTP Secure Headers', 'X-Frame-Options is not set')?.[0]).toBe('10020');
    expect(rule('HTTP Secure Headers', 'X-Content-Type-Options is not set')?.[0]).toBe('10021');
    expect(rule('HTTP Secure Headers', 'Strict-Transport-Security is not set')?.[0]).toBe('10035');
    expect(rule('Content Security Policy Configuration', 'CSP is not set')?.[0]).toBe('10038');
    expect(rule('Content Security Policy Configuration', 'CSP "script-src" value is not safe')?.[0]).toBe('10055');
    expect(rule('Internal Server Error', 'The server responded with a 500 HTTP error code while attempting to inject a payload in the parameter q')).toEqual(['90022', 'Application Error Disclosure', 'Low']);
  });

  it('maps every vulnerability and anomaly category wapiti can report, except the two ZAP has no rule for', () => {
    // The categories of the installed wapiti, read from its own definitions, when it is there (Debian's wapiti3).
    const dir = '/usr/lib/python3/dist-packages/wapitiCore/definitions';
    let installed: string[] = [];
    try {
      installed = readdirSync(dir)
        .filter((f) => f.endsWith('.py') && f !== '__init__.py')
        .map((f) => readFileSync(`${dir}/${f}`, 'utf8'))
        .filter((src) => /^TYPE = "(vulnerability|anomaly)"/m.test(src))
        .map((src) => /^NAME = _\("([^"]+)"\)/m.exec(src)?.[1] ?? '');
    } catch {
      installed = [];
    }
    const unmapped = installed.filter((name) => !WAPITI_CATEGORIES.includes(name)).sort();
    if (installed.length > 0) expect(unmapped).toEqual(['Resource consumption', 'Weak credentials']);
    for (const r of Object.values(ZAP_RULES)) expect(r.id).toMatch(/^\d+$/);
  });
});

describe('parseWapitiReport', () => {
  const report = {
    classifications: { 'Cross Site Scripting': { desc: 'Scripts run in the page. ', sol: 'Escape output.' } },
    vulnerabilities: {
      'Cross Site Scripting': [
        { method: 'GET', path: '/search', info: 'XSS vulnerability found via injection in the parameter q', level: 2, parameter: 'q', http_request: 'GET /search?q=%3Cscript%3E HTTP/1.1\nhost: x' },
      ],
      'Weak credentials': [{ method: 'POST', path: '/login', info: 'Credentials found', level: 1, parameter: '' }],
    },
    anomalies: {
      'Resource consumption': [{ method: 'GET', path: '/slow', info: 'Timeout (q)', level: 2, parameter: 'q' }],
      'Internal Server Error': [{ method: 'GET', path: '/err', info: 'The server responded with a 500 HTTP error code', level: 3, parameter: 'id' }],
    },
  };

  it("reports each instance under ZAP's id, name and risk, never wapiti's level", () => {
    const findings = parseWapitiReport(report, 'http://site.test');
    expect(findings.map((f) => [f.ruleId, f.name, f.risk, f.url, f.param ?? null])).toEqual([
      ['40012', 'Cross Site Scripting (Reflected)', 'High', 'http://site.test/search', 'q'],
      ['wapiti:weak-credentials', 'Weak credentials', 'Low', 'http://site.test/login', null],
      ['wapiti:resource-consumption', 'Resource consumption', 'Informational', 'http://site.test/slow', 'q'],
      ['90022', 'Application Error Disclosure', 'Low', 'http://site.test/err', 'id'],
    ]);
    expect(findings[0]).toMatchObject({ description: 'Scripts run in the page.', solution: 'Escape output.', evidence: 'XSS vulnerability found via injection in the parameter q · GET /search?q=%3Cscript%3E HTTP/1.1' });
  });
});
