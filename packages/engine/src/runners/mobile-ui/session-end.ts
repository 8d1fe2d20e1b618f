import { Agent, request } from 'undici';
import type { PinnedLookup } from '../../policy/target-guard.ts';
import type { AppiumEndpoint } from '../../types.ts';

/** How long ending a session the spec process left behind may take. */
export const END_SESSION_TIMEOUT_MS = 15_000;

/**
 * Ends an Appium session by its id (W3C `DELETE /session/{id}`), over a connection pinned to the endpoint's judged
 * addresses: the runner's kill path, for a session its spec process could not end. True when the server answered
 * that it ended it, or that there is no such session (ended already).
 */
export async function endSession(p: { url: URL; sessionId: string; endpoint: AppiumEndpoint; lookup: PinnedLookup }): Promise<boolean> {
  const base = p.url.href.endsWith('/') ? p.url.href : `${p.url.href}/`;
  const target = new URL(`session/${encodeURIComponent(p.sessionId)}`, base);
  const dispatcher = new Agent({ connect: { lookup: p.lookup as never }, connectTimeout: END_SESSION_TIMEOUT_MS });
  const auth = p.endpoint.username || p.endpoint.accessKey ? { authorization: `Basic ${Buffer.from(`${p.endpoint.username ?? ''}:${p.endpoint.accessKey ?? ''}`).toString('base64')}` } : {};
  try {
    const response = await request(target, { method: 'DELETE', dispatcher, headers: auth, signal: AbortSignal.timeout(END_SESSION_TIMEOUT_MS) });
    const body = await response.body.text();
    return response.statusCode < 300 || (response.statusCode === 404 && body.includes('invalid session id'));
  } catch {
    return false;
  } finally {
    await dispatcher.close().catch(() => {});
  }
}
