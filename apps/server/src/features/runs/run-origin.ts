import { RUN_TRIGGER_HEADER, type RunTrigger } from '@fullstop/contracts';
import type { Principal } from '../auth/index.ts';

/** How a run started and who started it, as engine_runs records them. */
export interface RunOrigin {
  trigger: RunTrigger;
  /** A user's id (a portal login, an operator's login); null for keys, the operator token and schedules. */
  requestedBy: string | null;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * A client's own call: a portal login (bearer) is the portal; with the API key, a CI job says so in
 * x-fullstop-trigger, and the portal's own page is told by the browser (Sec-Fetch-Site: same-origin, a header
 * no page script can set); anything else is the API. The header is the caller's word, so it only labels the run.
 */
export function clientRunOrigin(principal: Principal | null, headers: Headers): RunOrigin {
  if (principal?.via === 'bearer') return { trigger: 'portal', requestedBy: principal.userId };
  if (headers[RUN_TRIGGER_HEADER] === 'ci') return { trigger: 'ci', requestedBy: null };
  if (headers['sec-fetch-site'] === 'same-origin') return { trigger: 'portal', requestedBy: null };
  return { trigger: 'api', requestedBy: null };
}

/** An operator's call: the operator routes and `fullstop run --client`. */
export function operatorRunOrigin(principal: Principal | null): RunOrigin {
  return { trigger: 'operator', requestedBy: principal?.userId ?? null };
}
