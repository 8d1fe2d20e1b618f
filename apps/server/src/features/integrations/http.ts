import http from 'node:http';
import https from 'node:https';
import { createTargetGuard } from '@fullstop/engine';

/** What a tracker call answered: its status and (at most 1 MiB of) its body. */
export interface TrackerResponse {
  status: number;
  body: string;
  json<T>(): T | null;
}

/** A tracker could not be reached, or the target policy refused its address. */
export class TrackerUnreachableError extends Error {}

const MAX_BODY = 1024 * 1024;
const TIMEOUT_MS = 15_000;

/**
 * The policy of test targets (features/engine/targets), for a tracker's URL: http(s) only, and no loopback or
 * private address (after DNS, pinned for the connection) unless ENGINE_ALLOW_PRIVATE_TARGETS. The reason, or null.
 */
export async function trackerUrlRefusal(url: string, allowPrivate: boolean): Promise<string | null> {
  try {
    return await createTargetGuard({ baseUrl: url, allowedOrigins: [], allowPrivateAddresses: allowPrivate }).refusal(url);
  } catch {
    return 'not a valid URL';
  }
}

/**
 * One HTTP call to a tracker through the target policy. Redirects are not followed; the body read is capped.
 * Throws TrackerUnreachableError when refused or unreachable; any HTTP status is an answer.
 */
export async function trackerRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string; allowPrivate: boolean },
): Promise<TrackerResponse> {
  let guard;
  try {
    guard = createTargetGuard({ baseUrl: url, allowedOrigins: [], allowPrivateAddresses: options.allowPrivate });
  } catch {
    throw new TrackerUnreachableError('not a valid URL');
  }
  const refusal = await guard.refusal(url);
  if (refusal) throw new TrackerUnreachableError(`refused: ${refusal}`);
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { 'user-agent': 'FullstopQA-Integrations', accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise<TrackerResponse>((resolve, reject) => {
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
      res.on('error', (err) => reject(new TrackerUnreachableError(err.message)));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => reject(err instanceof TrackerUnreachableError ? err : new TrackerUnreachableError(err.message)));
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
