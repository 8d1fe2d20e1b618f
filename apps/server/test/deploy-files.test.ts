import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../src/config/env.ts';

const DEPLOY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../deploy');
const read = (file: string) => readFileSync(path.join(DEPLOY, file), 'utf8');

/** `NAME=value` lines of an environment file, comments and blank lines left out. */
function settingsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/**
 * The deployment files (deploy/) say what the server reads: a setting renamed in env.ts, or a proxy limit below the
 * upload limit, would otherwise surface only in someone's production.
 */
describe('deploy/: the files an installation starts from', () => {
  const example = settingsOf(read('fullstop.env.example'));

  it('the environment file example holds only real settings, and the server accepts it as it is', () => {
    // The per-process settings come from the unit or the compose service, as the example says.
    const env = loadEnv({ ...example, DATA_DIR: '/var/lib/fullstop/api-3001', PORT: '3001' }) as Record<string, unknown>;
    const unknown = Object.keys(example).filter((name) => !(name in env));
    expect(unknown, 'settings env.ts does not know').toEqual([]);
    for (const name of ['SERVER_KEY', 'OPERATOR_TOKEN', 'DATABASE_URL', 'ARTIFACT_STORE', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
      expect(example, name).toHaveProperty(name);
    }
    // Per process, so never in the shared file.
    expect(example).not.toHaveProperty('DATA_DIR');
    expect(example).not.toHaveProperty('PORT');
  });

  it('the proxy streams the event route unbuffered and admits the largest upload the API does', () => {
    const nginx = read('nginx.conf');
    const events = /location = \/test\/events \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    expect(events).toMatch(/proxy_buffering off;/);
    const bodyMax = /client_max_body_size (\d+)m;/.exec(nginx)?.[1];
    expect(Number(bodyMax) * 1024 * 1024).toBeGreaterThan(Number(example.UPLOAD_MAX_BYTES));
  });

  it('every process gets its own DATA_DIR, and the API processes run no tests', () => {
    const api = read('systemd/fullstop-api@.service');
    const worker = read('systemd/fullstop-worker@.service');
    expect(api).toMatch(/^Environment=DATA_DIR=\/var\/lib\/fullstop\/api-%i$/m);
    expect(api).toMatch(/^Environment=ENGINE_WORKERS=0$/m);
    expect(worker).toMatch(/^Environment=DATA_DIR=\/var\/lib\/fullstop\/worker-%i$/m);
    for (const unit of [api, worker]) {
      for (const option of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'PrivateTmp=yes', 'MemoryMax=']) expect(unit).toContain(option);
      // The shared file first, then what differs: systemd lets the later assignment win.
      expect(unit.indexOf('EnvironmentFile=')).toBeLessThan(unit.indexOf('Environment=DATA_DIR'));
    }
  });
});
