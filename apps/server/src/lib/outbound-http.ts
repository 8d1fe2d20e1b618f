import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { createTargetGuard } from '@fullstop/engine';

// Calls to addresses clients give us (trackers, webhooks, alert channels), held to the policy of test targets.

/** What a call answered: its status and (at most 1 MiB of) its body. */
export interface OutboundResponse {
  status: number;
  /** The response's headers, lower-case names, repeated ones joined with ", ". */
  headers: Record<string, string>;
  body: string;
  json<T>(): T | null;
}

/** The address could not be reached, or the target policy refused its address. */
export class OutboundUnreachableError extends Error {}

const MAX_BODY = 1024 * 1024;
/**
 * The whole call, from the address lookup to the body's last byte. A limit on silence alone let a receiver that
 * trickles a byte every few seconds hold a delivery (and the worker's slot) for as long as it liked.
 */
export const OUTBOUND_DEADLINE_MS = 15_000;

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

/** A body streamed from its source (a build being uploaded), never held whole in memory; `length` bytes exactly. */
export interface OutboundStreamBody {
  stream: () => NodeJS.ReadableStream;
  length: number;
}

interface OutboundOptions {
  method: string;
  headers?: Record<string, string>;
  body?: string | OutboundStreamBody;
  allowPrivate: boolean;
  userAgent?: string;
}

/** What the deadline's error says (and what the outbox records as the attempt's error). */
const overDeadline = (ms: number) => new OutboundUnreachableError(`no complete answer within ${ms / 1000} s`);

/**
 * One HTTP call through the target policy. Redirects are not followed; the body read is capped; the whole call
 * (lookup, connect, headers, body) ends at `deadlineMs` (OUTBOUND_DEADLINE_MS).
 * Throws OutboundUnreachableError when refused, unreachable or over the deadline; any HTTP status is an answer.
 */
export async function outboundRequest(
  url: string,
  options: OutboundOptions & { deadlineMs?: number },
): Promise<OutboundResponse> {
  const deadlineMs = options.deadlineMs ?? OUTBOUND_DEADLINE_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // The signal destroys the socket wherever the call is; the race also ends the lookup before it, which has none.
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const err = overDeadline(deadlineMs);
      controller.abort(err);
      reject(err);
    }, deadlineMs);
  });
  try {
    return await Promise.race([outboundCall(url, options, controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function outboundCall(
  url: string,
  options: OutboundOptions,
  signal: AbortSignal,
): Promise<OutboundResponse> {
  let guard;
  try {
    guard = createTargetGuard({ baseUrl: url, allowedOrigins: [], allowPrivateAddresses: options.allowPrivate });
  } catch {
    throw new OutboundUnreachableError('not a valid URL');
  }
  const refusal = await guard.refusal(url);
  if (refusal) throw new OutboundUnreachableError(`refused: ${refusal}`);
  signal.throwIfAborted();
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { 'user-agent': options.userAgent ?? 'FullstopQA-Integrations', accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(typeof options.body === 'string' ? Buffer.byteLength(options.body) : options.body.length);
  return new Promise<OutboundResponse>((resolve, reject) => {
    // The signal destroys the socket at the deadline, whether it is connecting, waiting for headers or reading.
    const req = lib.request(target, { method: options.method, headers, lookup: guard.lookup, signal }, (res) => {
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
          headers: Object.fromEntries(Object.entries(res.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]]))),
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
    req.on('error', (err) => reject(err instanceof OutboundUnreachableError ? err : new OutboundUnreachableError(err.message)));
    if (typeof options.body === 'object') {
      const source = options.body.stream();
      source.on('error', (err: Error) => req.destroy(new OutboundUnreachableError(`the body could not be read: ${err.message}`)));
      source.pipe(req);
      return;
    }
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
