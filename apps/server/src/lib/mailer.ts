import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Outgoing mail: through SMTP when SMTP_URL is set, otherwise each message is written as an .eml file to
 * DATA_DIR/outbox, so a fresh install can still hand out password-reset links. nodemailer loads with the first
 * message: most processes never send one.
 */
export const mailer = fp(async (app) => {
  const from = app.env.MAIL_FROM;
  let transport: Promise<Transporter> | null = null;
  const open = async (): Promise<Transporter> => {
    const { default: nodemailer } = await import('nodemailer');
    return app.env.SMTP_URL
      ? nodemailer.createTransport(app.env.SMTP_URL)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  };
  const service: Mailer = {
    async send(mail) {
      // A failed load is not kept: the next message tries again.
      transport ??= open().catch((err: unknown) => {
        transport = null;
        throw err;
      });
      const info = await (await transport).sendMail({ from, ...mail });
      if (!app.env.SMTP_URL) {
        const file = path.join(app.paths.outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
        await writeFile(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
        app.log.info({ to: mail.to, file }, 'mail written to the outbox (no SMTP_URL)');
      }
    },
  };
  app.decorate('mailer', service);
  app.addHook('onClose', async () => (await transport?.catch(() => null))?.close());
});

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}
