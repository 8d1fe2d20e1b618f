import { jwtVerify, SignJWT } from 'jose';
import { type TeamRole, teamRoles, type UserRole } from '../../db/schema/index.ts';

const ISSUER = 'fullstop';
const AUDIENCE = 'fullstop-api';

export interface AccessClaims {
  userId: string;
  clientId: string | null;
  role: UserRole;
  /**
   * A client user's team role when the token was issued (null for operators). A role change revokes the user's
   * sessions, so a token never outlives the role it carries.
   */
  teamRole: TeamRole | null;
  /** The login session (refresh-token family) the token belongs to: revoking it ends the token too. */
  sessionId: string;
}

export async function signAccessToken(key: Uint8Array, claims: AccessClaims, ttlSeconds: number): Promise<string> {
  return new SignJWT({ cid: claims.clientId, role: claims.role, tr: claims.teamRole, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

/**
 * Tokens whose signature was already checked, until they expire. A token never changes, so checking its
 * signature once is enough (whether its session is still live is checked on every call, by the guard); WebCrypto's HMAC costs more than the rest of a cached read (see bench/api).
 */
const verifiedByKey = new WeakMap<Uint8Array, Map<string, { claims: AccessClaims; expiresAt: number }>>();
const VERIFIED_MAX = 10_000;

/** Null for anything that is not a valid, unexpired token of ours. */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<AccessClaims | null> {
  let verified = verifiedByKey.get(key);
  if (!verified) {
    verified = new Map();
    verifiedByKey.set(key, verified);
  }
  const known = verified.get(token);
  if (known) {
    if (known.expiresAt > Date.now()) return known.claims;
    verified.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
    const role = payload.role;
    if (typeof payload.sub !== 'string' || (role !== 'client' && role !== 'operator') || typeof payload.exp !== 'number') return null;
    // A token without a session id (issued before sessions existed) cannot be revoked: refused, the portal refreshes.
    if (typeof payload.sid !== 'string') return null;
    // A client's token without a team role (issued before teams existed) is refused the same way: the portal refreshes.
    const teamRole = teamRoles.find((r) => r === payload.tr) ?? null;
    if (role === 'client' && !teamRole) return null;
    const cid = payload.cid;
    const claims: AccessClaims = {
      userId: payload.sub,
      clientId: typeof cid === 'string' ? cid : null,
      role,
      teamRole: role === 'client' ? teamRole : null,
      sessionId: payload.sid,
    };
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, expiresAt: payload.exp * 1000 });
    return claims;
  } catch {
    return null;
  }
}
