import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** The token in the newest alert-channel confirmation mail to `to` (the .eml body is quoted-printable). */
export async function confirmationTokenFor(app: FastifyInstance, to: string): Promise<string> {
  // Outbox files are named by time: sorted, the last one is the newest.
  const names = (await readdir(app.paths.outbox)).sort();
  const mails = (await Promise.all(names.map((n) => readFile(path.join(app.paths.outbox, n), 'utf8')))).filter((m) => m.includes(`To: ${to}`));
  const tokens = mails.map((m) => /\/confirm-alerts\?token=([A-Za-z0-9_%-]+)/.exec(m.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1]).filter(Boolean);
  if (tokens.length === 0) throw new Error(`no confirmation mail to ${to}`);
  return decodeURIComponent(tokens[tokens.length - 1]!);
}
