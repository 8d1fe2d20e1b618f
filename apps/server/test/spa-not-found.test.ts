import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers/app.ts';

/** Every first path segment of the API (the routes say so; this list only checks they still do). */
const API_PREFIXES = ['/auth', '/clientProfile', '/upload', '/test', '/report', '/insight', '/requests', '/operator', '/docs', '/healthz'];

const BIG_ASSET = `export const words = ${JSON.stringify('the same few words again and again '.repeat(200))};\n`;

describe('an unknown path: the SPA’s 404 page, or JSON under the API', () => {
  const distDir = mkdtempSync(path.join(os.tmpdir(), 'fullstop-dist-'));
  let app: FastifyInstance;

  beforeAll(async () => {
    mkdirSync(path.join(distDir, 'assets'));
    writeFileSync(path.join(distDir, 'index.html'), '<html><head></head><body>home</body></html>');
    writeFileSync(path.join(distDir, '404.html'), '<html><head></head><body>not found</body></html>');
    writeFileSync(path.join(distDir, 'assets', 'app.js'), 'console.log(1)');
    // What the web build writes beside each asset (apps/web/scripts/precompress-plugin.ts).
    writeFileSync(path.join(distDir, 'assets', 'big.js'), BIG_ASSET);
    writeFileSync(path.join(distDir, 'assets', 'big.js.br'), brotliCompressSync(BIG_ASSET));
    writeFileSync(path.join(distDir, 'assets', 'big.js.gz'), gzipSync(BIG_ASSET));
    app = await buildTestApp({ env: { WEB_DIST_DIR: distDir } });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('answers JSON 404 under every API prefix', async () => {
    for (const prefix of API_PREFIXES) {
      for (const url of [`${prefix}/no/such/thing/here`, `${prefix}/no/such/thing/here?x=1`]) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
      }
    }
  });

  it('answers the 404 page anywhere else, also beside the API’s prefixes and under the SPA’s own', async () => {
    for (const url of ['/no-such-page', '/authx', '/docsy/x', '/login/extra', '/assets/missing.js', '/dashboard/nope']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('not found');
    }
  });

  it('still serves the pages, the files and the API', async () => {
    expect((await app.inject({ url: '/login' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/no-such-page' })).json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('sends the build’s Brotli or gzip copy of an asset to a browser that takes it, the file itself to one that takes neither', async () => {
    const br = await app.inject({ url: '/assets/big.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_ASSET);
    // The build's own bytes, not a compression made for this answer.
    expect(br.rawPayload.equals(readFileSync(path.join(distDir, 'assets', 'big.js.br')))).toBe(true);
    const gz = await app.inject({ url: '/assets/big.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_ASSET);
    expect(gz.rawPayload.equals(readFileSync(path.join(distDir, 'assets', 'big.js.gz')))).toBe(true);
    const plain = await app.inject({ url: '/assets/big.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_ASSET);
    for (const res of [br, gz, plain]) expect(res.headers.vary).toMatch(/accept-encoding/i);
  });
});
