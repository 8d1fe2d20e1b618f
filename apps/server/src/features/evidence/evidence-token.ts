import type { EvidenceKind } from '@fullstop/contracts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { signUrlToken, verifyUrlToken } from '../../lib/url-token.ts';

/**
 * How long an evidence link works. The trace viewer fetches the trace once, after it has loaded itself and
 * registered its service worker; on a slow line that takes a while, so this is longer than a report's link.
 */
export const EVIDENCE_LINK_TTL_SECONDS = 300;

const PURPOSE = 'fullstop evidence file token v1';

/** One file of one run test of one client: what a link stands for. */
export interface EvidenceClaims {
  clientId: string;
  runId: string;
  runTestId: string;
  /** Relative to the run test's folder, as the evidence list has it. */
  path: string;
  kind: EvidenceKind;
}

export function signEvidenceToken(keys: ServerKeys, claims: EvidenceClaims, now = Date.now()): string {
  const { clientId: c, runId: r, runTestId: t, path: p, kind: k } = claims;
  return signUrlToken(keys, PURPOSE, { c, r, t, p, k }, EVIDENCE_LINK_TTL_SECONDS, now);
}

/** The claims of a genuine, unexpired token; null for anything else (tampered, expired, another purpose). */
export function verifyEvidenceToken(keys: ServerKeys, token: string, now = Date.now()): EvidenceClaims | null {
  const claims = verifyUrlToken(keys, PURPOSE, token, now);
  if (!claims) return null;
  const { c, r, t, p, k } = claims;
  if (typeof c !== 'string' || typeof r !== 'string' || typeof t !== 'string' || typeof p !== 'string') return null;
  if (k !== 'trace' && k !== 'screenshot') return null;
  return { clientId: c, runId: r, runTestId: t, path: p, kind: k };
}

/** Evidence files are served under this; the rest of the path is the signed token. */
export const EVIDENCE_FILE_PREFIX = '/evidence/file/';

/** The address of one file of a run test, as an evidence link gives it (other features' images: visual shots). */
export function evidenceFileUrl(keys: ServerKeys, claims: EvidenceClaims, now = Date.now()): string {
  return `${EVIDENCE_FILE_PREFIX}${signEvidenceToken(keys, claims, now)}`;
}
