import { CLIENT_REQUEST_KIND_LABELS, CLIENT_REQUEST_STATUS_LABELS, type ClientRequestKind, type ClientRequestStatus, paths } from '@fullstop/contracts';
import type { FastifyInstance } from 'fastify';
import { publicUrl } from '../../config/env.ts';
import { clientEmails, operatorEmails } from '../accounts/index.ts';

interface About {
  id: string;
  clientId: string;
  clientName: string;
  kind: ClientRequestKind;
  title: string;
}

export type RequestNews =
  | { type: 'created'; details: string }
  | { type: 'reply'; authorName: string; body: string }
  | { type: 'status'; status: ClientRequestStatus };

/** A title is the client's own text: one line, no longer than a subject should be. */
export function subjectText(title: string): string {
  // eslint-disable-next-line no-control-regex
  const line = title.replace(/[\r\n\t\u0000-\u001f\u007f]+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/**
 * Tells the other side: an operator's reply or status change goes to the client's users; a client's new request
 * or reply goes to every operator user, or to CONTACT_EMAIL when there is none. A failed mail is logged and never
 * fails the reply it announces.
 */
export async function notifyOtherSide(app: FastifyInstance, to: 'client' | 'operator', about: About, news: RequestNews): Promise<void> {
  const base = publicUrl(app.env);
  const title = subjectText(about.title);
  let recipients: string[];
  let link: string;
  if (to === 'client') {
    recipients = await clientEmails(app.db, about.clientId);
    link = `${base}${paths.requests}?id=${encodeURIComponent(about.id)}`;
  } else {
    recipients = await operatorEmails(app.db);
    if (recipients.length === 0) recipients = [app.env.CONTACT_EMAIL];
    link = `${base}${paths.opsRequests}?id=${encodeURIComponent(about.id)}`;
  }
  const kind = CLIENT_REQUEST_KIND_LABELS[about.kind];
  let subject: string;
  let lead: string;
  if (news.type === 'created') {
    subject = `New request from ${subjectText(about.clientName)}: ${title}`;
    lead = `${about.clientName} sent a new request (${kind}).\n\n${news.details}`;
  } else if (news.type === 'reply') {
    subject = to === 'client' ? `Reply to your request: ${title}` : `${subjectText(about.clientName)} replied: ${title}`;
    lead = `${news.authorName} wrote:\n\n${news.body}`;
  } else {
    subject = `Your request is ${CLIENT_REQUEST_STATUS_LABELS[news.status].toLowerCase()}: ${title}`;
    lead = `The QA team moved your request to "${CLIENT_REQUEST_STATUS_LABELS[news.status]}".`;
  }
  const text = `Request: ${title}\nType: ${kind}\n\n${lead}\n\nOpen the request: ${link}\n`;
  for (const recipient of recipients) {
    try {
      await app.mailer.send({ to: recipient, subject, text });
    } catch (err) {
      app.log.error({ err, requestId: about.id }, 'could not send the request mail');
    }
  }
}
