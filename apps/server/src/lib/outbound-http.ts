import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { createTargetGuard } from '@fullstop/engine';

// Calls to addresses clients give us (trackers, webhooks, alert channels), held to the policy of test targets.

/** What a call answered: its status and (at most 1 MiB of) its body. */
export interface OutboundResponse {
  status: number;
  body: string;
  json<T>(): T | null;
}

/** The address could not be reached, or the target policy refused its address. */
export class OutboundUnreachableError extends Error {}

const MAX_BODY = 1024 * 1024;
const TIMEOUT_MS = 15_000;

/**
 * The policy of test targets (features/targets), for a URL a client gave: http(s) only, and no loopback or
 * private address (after DNS, pinned for the connection) unless ENGINE_ALLOW_PRIVATE_TARGETS. The reason, or null.
 */
export async function outboundUrlRefusal(url: string, allowPrivate: boolean): Promise<string | null> {
  try {
    return await createTargetGuard({ baseUrl: url, allowedOrigins: [], allowPrivateAddresses: allowPrivate }).refusal(url);
  } catch {
    return 'not a valid URL';
  }
}

/**
 * One HTTP call through the target policy. Redirects are not followed; the body read is capped.
 * Throws OutboundUnreachableError when refused or unreachable; any HTTP status is an answer.
 */
export async function outboundRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string; allowPrivate: boolean; userAgent?: string },
): Promise<OutboundResponse> {
  let guard;
  try {
    guard = createTargetGuard({ baseUrl: url, allowedOrigins: [], allowPrivateAddresses: options.allowPrivate });
  } catch {
    throw new OutboundUnreachableError('not a valid URL');
  }
  const refusal = await guard.refusal(url);
  if (refusal) throw new OutboundUnreachableError(`refused: ${refusal}`);
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { 'user-agent': options.userAgent ?? 'FullstopQA-Integrations', accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = lib.request(target, { method: options.method, headers, lookup: guard.lookup, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY) chunks.push(chunk);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          body,
          json<T>() {
            try {
              return JSON.parse(body) as T;
            } catch {
              return null;
            }
          },
        });
      });
      res.on('error', (err) => reject(new OutboundUnreachableError(err.message)));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => reject(err instanceof OutboundUnreachableError ? err : new OutboundUnreachableError(err.message)));
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`, the X-Fullstop-Signature header (docs/bug-export.md). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** POSTs one signed JSON body (X-Fullstop-Timestamp, X-Fullstop-Signature); the timestamp is the attempt's own. */
export async function sendSignedWebhook(url: string, secret: string, body: string, allowPrivate: boolean, userAgent?: string): Promise<OutboundResponse> {
  const timestamp = Math.floor(Date.now() / 1000);
  return outboundRequest(url, {
    method: 'POST',
    allowPrivate,
    ...(userAgent ? { userAgent } : {}),
    headers: { 'content-type': 'application/json', 'x-fullstop-timestamp': String(timestamp), 'x-fullstop-signature': webhookSignature(secret, timestamp, body) },
    body,
  });
}
