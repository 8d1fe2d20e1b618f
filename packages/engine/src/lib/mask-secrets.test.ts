import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { MASK, maskBuffer, maskForms, maskText } from './mask-secrets.ts';
import { cookieHeaderFor, type LoginSession, withLoginHeaders } from './login-session.ts';

const SECRET = 'p@ss word/42&x';

async function zipOf(entries: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function unzip(buf: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Record<string, string> = {};
      zip.on('end', () => resolve(out));
      zip.on('entry', (e: yauzl.Entry) =>
        zip.openReadStream(e, (_e, s) => {
          const parts: Buffer[] = [];
          s!.on('data', (c: Buffer) => parts.push(c)).on('end', () => {
            out[e.fileName] = Buffer.concat(parts).toString();
            zip.readEntry();
          });
        }),
      );
      zip.readEntry();
    });
  });
}

describe('masking secrets in artifacts', () => {
  it('masks a value as typed, URL- and form-encoded, JSON- and HTML-escaped, and inside base64 at any alignment', () => {
    const forms = maskForms([SECRET]);
    const samples = [
      `password=${SECRET}`,
      `body: password=${encodeURIComponent(SECRET).replace(/%20/g, '+')}`,
      JSON.stringify({ value: SECRET }),
      `<td>${SECRET.replace('&', '&amp;')}</td>`,
      ...['', 'a', 'ab'].map((prefix) => Buffer.from(`${prefix}user:${SECRET}`).toString('base64')),
    ];
    for (const sample of samples) {
      const masked = maskText(sample, forms);
      expect(masked, sample).toContain(MASK);
      expect(masked).not.toContain(SECRET);
      // Nothing of the secret's base64 is left to decode.
      expect(Buffer.from(masked.replace(/[^A-Za-z0-9+/]/g, ''), 'base64').toString('latin1')).not.toContain('word/42');
    }
  });

  it('rewrites a zip (a trace) entry by entry and leaves a zip without the value as it was', async () => {
    const zip = await zipOf({ 'trace.network': `{"headers":[{"name":"Authorization","value":"Bearer ${SECRET}"}]}`, 'page.html': '<p>hello</p>' });
    const masked = await maskBuffer(zip, maskForms([SECRET]));
    const entries = await unzip(masked);
    expect(entries['trace.network']).toBe(`{"headers":[{"name":"Authorization","value":"Bearer ${MASK}"}]}`);
    expect(entries['page.html']).toBe('<p>hello</p>');
    const clean = await zipOf({ 'a.txt': 'nothing here' });
    expect(await maskBuffer(clean, maskForms([SECRET]))).toBe(clean);
  });

  it('masks the zip an HTML report inlines as a data URL', async () => {
    const inner = await zipOf({ 'report.json': JSON.stringify({ step: `fill ${SECRET}` }) });
    const html = Buffer.from(`<script>window.data = "data:application/zip;base64,${inner.toString('base64')}";</script>`);
    const masked = (await maskBuffer(html, maskForms([SECRET]))).toString();
    const b64 = /base64,([A-Za-z0-9+/=]+)/.exec(masked)![1]!;
    expect((await unzip(Buffer.from(b64, 'base64')))['report.json']).toBe(JSON.stringify({ step: `fill ${MASK}` }));
  });
});

describe('the session on a request', () => {
  const session: LoginSession = {
    headers: { Authorization: 'Bearer t' },
    cookies: [
      { name: 'sid', value: 'abc', domain: 'shop.test', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' },
      { name: 'admin', value: 'x', domain: 'shop.test', path: '/admin', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' },
      { name: 'wide', value: 'w', domain: '.shop.test', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' },
    ],
    origins: [],
    masks: [],
  };

  it('sends cookies by domain, path and scheme', () => {
    expect(cookieHeaderFor(session, 'http://shop.test/cart')).toBe('sid=abc');
    expect(cookieHeaderFor(session, 'https://shop.test/admin/users')).toBe('sid=abc; admin=x; wide=w');
    expect(cookieHeaderFor(session, 'https://api.shop.test/')).toBe('wide=w');
    expect(cookieHeaderFor(session, 'https://other.test/')).toBeUndefined();
    expect(cookieHeaderFor(session, 'http://shop.test/administrator')).toBe('sid=abc');
  });

  it('lets a request’s own headers win and appends the session’s cookies to its own', () => {
    expect(withLoginHeaders(session, 'http://shop.test/', { authorization: 'Basic z', Cookie: 'a=1' })).toEqual({ authorization: 'Basic z', Cookie: 'a=1; sid=abc' });
    expect(withLoginHeaders(undefined, 'http://shop.test/', { a: '1' })).toEqual({ a: '1' });
  });
});
