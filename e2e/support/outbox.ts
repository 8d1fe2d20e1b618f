import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The newest mail the server under test wrote to its outbox for this address (it has no SMTP server here). */
export async function mailTo(address: string, timeoutMs = 10_000): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const names = await readdir(outbox).catch(() => [] as string[]);
    for (const name of names.sort().reverse()) {
      const text = await readFile(path.join(outbox, name), 'utf8');
      if (text.includes(`To: ${address}`)) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${address} in ${outbox}`);
}

/** The link of a password-reset mail (the body is quoted-printable: soft line breaks, and =3D for '='). */
export function resetLinkOf(mail: string): URL {
  const body = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/\S+\/login\?resetToken=[A-Za-z0-9_%-]+/.exec(body);
  if (!match) throw new Error('the mail has no reset link');
  return new URL(match[0]);
}
