import { describe, expect, it } from 'vitest';
import { urlPattern } from '../lib/login.ts';
import { loginDeclaration, secretNamesOf } from './login-declaration.ts';

const issues = (value: unknown) => loginDeclaration.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('a suite’s login declaration', () => {
  it('names its secrets, each once', () => {
    const login = loginDeclaration.parse({
      type: 'form',
      url: '/login',
      fields: [
        { selector: '#user', value: '{{secret:user}}' },
        { selector: '#password', value: '{{ secret:password }}' },
        { selector: '#again', value: 'x{{secret:password}}y' },
      ],
      submit: 'button',
      success: { selector: '#logout' },
    });
    expect(secretNamesOf(login)).toEqual(['user', 'password']);
    expect(login.type === 'form' && login.timeoutMs).toBe(30_000);
  });

  it('says what is wrong, field by field', () => {
    expect(issues({ type: 'magic' })).toEqual(['type: must be one of form, header, cookie']);
    expect(issues({ type: 'header', headers: { 'Bad Name': 'x' } })).toEqual(['headers.Bad Name: is not a valid header name']);
    expect(issues({ type: 'header', headers: { Cookie: 'a=1' } })[0]).toContain('use "type": "cookie" for cookies');
    expect(issues({ type: 'header', headers: {} })).toEqual(['headers: name at least one header']);
    expect(issues({ type: 'cookie', cookies: { sid: '{{secret:}}' } })[0]).toContain('"{{secret:}}" names no valid secret');
    expect(issues({ type: 'form', url: '/login', fields: [], submit: 'b', success: { url: '/([/' } })).toEqual([
      'fields: a form login fills at least one field',
      'success.url: is not a valid regular expression',
    ]);
    expect(issues({ type: 'form', url: '/login', fields: [{ selector: '#a', value: 'v' }], submit: 'b', success: {}, password: 'x' })).toHaveLength(2);
  });

  it('reads a success URL as a glob, or as a regular expression between slashes', () => {
    expect(urlPattern('**/account')).toBe('**/account');
    expect(urlPattern('/\\/home$/i')).toEqual(/\/home$/i);
  });
});
