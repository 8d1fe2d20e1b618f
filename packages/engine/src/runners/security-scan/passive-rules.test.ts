import { describe, expect, it } from 'vitest';
import type { GuardedResponse } from '../../lib/http.ts';
import { passiveFindings } from './passive-rules.ts';

function response(url: string, headers: Record<string, string>, body = '', setCookies: string[] = []): GuardedResponse {
  return { url, status: 200, headers: new Headers(headers), setCookies, body, durationMs: 1, redirects: [] };
}

const hardenedHtml = {
  'content-type': 'text/html',
  'content-security-policy': "default-src 'self'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'permissions-policy': 'camera=()',
  'strict-transport-security': 'max-age=31536000',
};

const ids = (url: string, headers: Record<string, string>, body?: string, cookies?: string[]) =>
  passiveFindings(response(url, headers, body, cookies)).map((f) => [f.ruleId, f.param ?? '', f.evidence ?? '']);

describe('passive rules over https', () => {
  it('asks for HSTS and Secure cookies only over https, and flags mixed content', () => {
    const { 'strict-transport-security': _, ...noHsts } = hardenedHtml;
    expect(ids('https://shop.example/', noHsts, '<img src="http://cdn.example/a.png"><script src="https://ok.example/x.js"></script>', ['sid=1; HttpOnly; SameSite=Lax'])).toEqual([
      ['10040', '', 'http://cdn.example/a.png'],
      ['10035', '', ''],
      ['10011', 'sid', 'Set-Cookie: sid'],
    ]);
    expect(ids('http://shop.example/', noHsts, '<img src="http://cdn.example/a.png">', ['sid=1; HttpOnly; SameSite=Lax'])).toEqual([]);
  });

  it('flags a weak CSP, suspicious comments and a Python traceback', () => {
    const headers = { ...hardenedHtml, 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'" };
    expect(ids('https://shop.example/', headers, '<!-- TODO remove the admin password --><pre>Traceback (most recent call last):</pre>').map((r) => r[0])).toEqual(['10055', '10027', '90022']);
  });

  it('finds nothing on a hardened https page with a flagged cookie', () => {
    expect(ids('https://shop.example/', hardenedHtml, '<h1>ok</h1>', ['sid=1; Secure; HttpOnly; SameSite=Strict'])).toEqual([]);
  });
});
