import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from './app.ts';

/** The mails in the outbox addressed to `to` (the mailer writes .eml files there when SMTP_URL is unset). */
export async function mailsTo(app: FastifyInstance, to: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(app.paths.outbox)) {
    const text = await readFile(path.join(app.paths.outbox, name), 'utf8').catch(() => '');
    if (text.includes(`To: ${to}`)) found.push(text);
  }
  return found;
}

/**
 * Waits until the number of mails to `to` has reached `atLeast` and then stayed the same for `quietMs`
 * (reset mails are sent after the answer), and returns them.
 */
export async function settledMailsTo(app: FastifyInstance, to: string, atLeast = 1, quietMs = 400, timeoutMs = 20_000): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  let last = -1;
  let stableSince = Date.now();
  for (;;) {
    const mails = await mailsTo(app, to);
    if (mails.length !== last) {
      last = mails.length;
      stableSince = Date.now();
    }
    if (mails.length >= atLeast && Date.now() - stableSince >= quietMs) return mails;
    if (Date.now() > end) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The token in a reset mail's link (the .eml body is quoted-printable: soft breaks and =3D for '='). */
export function resetTokenOf(mail: string): string {
  const match = /resetToken=([A-Za-z0-9_%-]+)/.exec(mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
  if (!match?.[1]) throw new Error('no reset link in the mail');
  return decodeURIComponent(match[1]);
}

/** Asks for a reset mail and returns the token of the new one. */
export async function resetTokenFor(app: FastifyInstance, email: string): Promise<string> {
  const before = new Set((await mailsTo(app, email)).map(resetTokenOf));
  const res = await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
  if (res.statusCode !== 200) throw new Error(`forgot-password answered ${res.statusCode}`);
  const mails = await settledMailsTo(app, email, before.size + 1, 0);
  const fresh = mails.map(resetTokenOf).find((t) => !before.has(t));
  if (!fresh) throw new Error(`no new reset mail to ${email}`);
  return fresh;
}

/** The per-account login limit of the throttle tests. */
export const MAX_PER_ACCOUNT = 5;

/**
 * An app whose login throttle is the account's count alone (an address's own limit is set out of reach), so
 * many guesses from a few addresses show what the account's limit lets through.
 */
export function buildAccountThrottledApp(): Promise<FastifyInstance> {
  return buildTestApp({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: MAX_PER_ACCOUNT, LOGIN_MAX_FAILURES_PER_ADDRESS: 10_000 } });
}
