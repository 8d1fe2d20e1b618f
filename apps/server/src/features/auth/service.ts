import { INVALID_CREDENTIALS_MESSAGE, type LoginResponse, type RefreshResponse, type UserData } from '@fullstop/contracts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Env, publicUrl } from '../../config/env.ts';
import type { Db } from '../../db/database.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { findUserByEmail, findUserById, type UserRow } from '../accounts/index.ts';
import { normaliseEmail } from '../accounts/index.ts';
import { consumeResetToken, setPassword } from './password-service.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { createResetToken } from './reset-token-repository.ts';
import type { Principal } from './guard.ts';
import { consumeRefreshToken, findSessionOfRefreshToken, issueRefreshToken } from './session-repository.ts';
import type { SessionService } from './session-service.ts';
import {
  accountKey,
  addressKey,
  isTrustedAddress,
  resetAccountKey,
  resetAddressKey,
  takeAttempt,
  throttleMessage,
  trustAddress,
  trustedAccountKey,
} from './throttle.ts';
import { clearFailures, giveBack } from './throttle-repository.ts';
import { signAccessToken } from './tokens.ts';

export interface AuthDeps {
  db: Db;
  env: Env;
  keys: ServerKeys;
  sessions: SessionService;
  mailer: Mailer;
}

/** Who is asking: the source address (throttle, audit) and the request's log. */
export interface Caller {
  address: string;
  log: FastifyBaseLogger;
}

/** What the auth functions need of the running app: routes build it once. */
export const authDepsOf = (app: FastifyInstance): AuthDeps => ({ db: app.db, env: app.env, keys: app.keys, sessions: app.authSessions, mailer: app.mailer });

/** The caller of a request. */
export const requestCaller = (request: { ip: string; log: FastifyBaseLogger }): Caller => ({ address: request.ip, log: request.log });

export const userDataOf = (user: UserRow): UserData => ({
  id: user.id,
  username: user.username,
  email: user.email,
  role: user.role,
  clientId: user.clientId,
  teamRole: user.teamRole,
});

const invalidRefreshToken = () => new UnauthorizedError('Invalid or expired refresh token', 'INVALID_REFRESH_TOKEN');

// Logins, token refreshes, logouts and password resets and changes, each with its throttle and audit trail: one
// function per action over the feature's deps (docs/decisions/0071). Reset mails go out after the answer, so they
// are work in flight: PasswordResetMails holds it.

// The source address first: a source over its limit does not even write a count for the email it names. An address
// the account's owner proved itself from counts under its own key for that account only: guesses at other accounts
// from the same address (another user of an office's NAT, or a security scan of the login run from the server's own
// machine, decision 0095) do not shut the owner out, and guesses at this account from it are limited as before.
const loginLimits = (env: Env, limit: AccountLimit, address: string) => [
  ...(limit.trusted ? [] : [{ key: addressKey(address), max: env.LOGIN_MAX_FAILURES_PER_ADDRESS, windowSeconds: env.LOGIN_THROTTLE_WINDOW }]),
  { key: limit.key, max: env.LOGIN_MAX_FAILURES_PER_ACCOUNT, windowSeconds: env.LOGIN_THROTTLE_WINDOW },
];
const resetLimits = (env: Env, email: string, address: string) => [
  { key: resetAddressKey(address), max: env.FORGOT_PASSWORD_MAX_PER_ADDRESS, windowSeconds: env.FORGOT_PASSWORD_WINDOW },
  { key: resetAccountKey(email), max: env.FORGOT_PASSWORD_MAX_PER_ACCOUNT, windowSeconds: env.FORGOT_PASSWORD_WINDOW },
];
// An address the owner proved itself from has its own count for the account (same limit): a lock-out
// caused from elsewhere does not reach it.
interface AccountLimit {
  key: string;
  /** The owner proved itself from this address: its own count for the account, no share of the address's. */
  trusted: boolean;
}
const accountLimitOf = async (db: Db, email: string, address: string): Promise<AccountLimit> =>
  (await isTrustedAddress(db, email, address)) ? { key: trustedAccountKey(email, address), trusted: true } : { key: accountKey(email), trusted: false };
// Not a failure after all: the account's count starts again and the address's attempt (when one was taken) is given back.
const forgiveAttempt = async (db: Db, limit: AccountLimit, address: string) => {
  await clearFailures(db, limit.key);
  if (!limit.trusted) await giveBack(db, [addressKey(address)]);
};
const issueTokens = async ({ db, env, keys }: AuthDeps, user: UserRow, sessionId: string): Promise<RefreshResponse> => ({
  accessToken: await signAccessToken(
    keys.jwt,
    { userId: user.id, clientId: user.clientId, role: user.role, teamRole: user.teamRole, sessionId },
    env.ACCESS_TOKEN_TTL,
  ),
  refreshToken: await issueRefreshToken(db, user.id, env.REFRESH_TOKEN_TTL, sessionId),
});

/** A new session for a user who just proved who they are (a login, an accepted invitation): the login's answer. */
export async function startLogin(deps: AuthDeps, user: UserRow): Promise<LoginResponse> {
  return {
    ...(await issueTokens(deps, user, await deps.sessions.start(user.id))),
    userData: userDataOf(user),
  };
}

export async function login(deps: AuthDeps, rawEmail: string, password: string, { address, log }: Caller): Promise<LoginResponse> {
  const { db, env } = deps;
  const email = normaliseEmail(rawEmail);
  const accountLimit = await accountLimitOf(db, email, address);
  // Counted before the password is checked, so concurrent guesses cannot all slip under the limit.
  const wait = await takeAttempt(db, loginLimits(env, accountLimit, address));
  if (wait > 0) {
    await audit(db, log, { type: 'login.throttled', address, details: { email } });
    throw new TooManyRequestsError(throttleMessage(wait), wait);
  }
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok) {
    await audit(db, log, { type: 'login.failure', userId: user?.id, clientId: user?.clientId, address, details: { email } });
    throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE, 'INVALID_CREDENTIALS');
  }
  await forgiveAttempt(db, accountLimit, address);
  await trustAddress(db, email, address);
  const answer = await startLogin(deps, user);
  await audit(db, log, { type: 'login.success', userId: user.id, clientId: user.clientId, address });
  return answer;
}

/** A new pair for a refresh token; a token used twice revokes its whole session. */
export async function refresh(deps: AuthDeps, token: string, { address, log }: Caller): Promise<RefreshResponse> {
  const { db, sessions } = deps;
  const result = await consumeRefreshToken(db, token);
  if (!result.ok) {
    if (result.reason === 'reused' && result.userId && result.familyId) {
      const owner = await findUserById(db, result.userId);
      if (owner) await sessions.revokeSession(result.familyId, owner);
      await audit(db, log, { type: 'token.reuse', userId: result.userId, address });
    }
    throw invalidRefreshToken();
  }
  const user = await findUserById(db, result.userId);
  if (!user) throw invalidRefreshToken();
  // The new pair stays in the consumed token's session: if a reset revoked it meanwhile, both are dead at once.
  return issueTokens(deps, user, result.familyId);
}

/** Ends the session of a refresh token; the same for a known, unknown or already ended one. */
export async function logout({ db, sessions }: AuthDeps, token: string, { address, log }: Caller): Promise<void> {
  const session = await findSessionOfRefreshToken(db, token);
  const user = session ? await findUserById(db, session.userId) : null;
  if (session && user && (await sessions.revokeSession(session.sessionId, user))) {
    await audit(db, log, { type: 'logout', userId: user.id, clientId: user.clientId, address });
  }
}

export async function resetPassword({ db, sessions }: AuthDeps, token: string, password: string, { address, log }: Caller): Promise<void> {
  const user = await consumeResetToken(db, token);
  if (!user) throw new AppError(400, 'INVALID_RESET_TOKEN', 'This reset link is invalid or has expired. Please ask for a new one.', { field: 'token' });
  await setPassword(db, sessions, user, password);
  // The mail proves the owner: a lock-out an attacker caused by guessing ends here, and this address is
  // spared the next one.
  await clearFailures(db, accountKey(user.email));
  await clearFailures(db, trustedAccountKey(user.email, address));
  await trustAddress(db, user.email, address);
  await audit(db, log, { type: 'password.reset', userId: user.id, clientId: user.clientId, address });
}

/** Every session of the user ends; the caller gets a new pair in a new one. */
export async function changePassword(
  deps: AuthDeps,
  principal: Principal | null,
  currentPassword: string,
  newPassword: string,
  { address, log }: Caller,
): Promise<RefreshResponse> {
  const { db, env, sessions } = deps;
  const userId = principal?.via === 'bearer' ? principal.userId : null;
  if (!userId) throw new ForbiddenError('Only a signed-in user can change a password');
  const user = await findUserById(db, userId);
  if (!user) throw new UnauthorizedError('Invalid or expired access token', 'INVALID_TOKEN');
  // A stolen access token must not become a way around the login throttle: the same counts apply.
  const accountLimit = await accountLimitOf(db, user.email, address);
  const wait = await takeAttempt(db, loginLimits(env, accountLimit, address));
  if (wait > 0) throw new TooManyRequestsError(throttleMessage(wait), wait);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    await audit(db, log, { type: 'login.failure', userId: user.id, clientId: user.clientId, address, details: { email: user.email, via: 'change-password' } });
    throw new AppError(400, 'INVALID_CURRENT_PASSWORD', 'The current password is not right.', { field: 'currentPassword' });
  }
  await forgiveAttempt(db, accountLimit, address);
  await setPassword(db, sessions, user, newPassword);
  await audit(db, log, { type: 'password.changed', userId: user.id, clientId: user.clientId, address });
  return issueTokens(deps, user, await sessions.start(user.id));
}

/**
 * Password-reset mails, sent after the answer so the answer's timing says nothing about the account. `close()`
 * waits for the ones still being sent.
 */
export class PasswordResetMails {
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly deps: AuthDeps) {}

  /** Sends a reset mail later, if the account exists and no limit was hit; the caller learns neither. */
  async request(rawEmail: string, caller: Caller): Promise<void> {
    const email = normaliseEmail(rawEmail);
    const { address, log } = caller;
    // Counted for every address asked for, known or not, so the limit reveals nothing either.
    const wait = await takeAttempt(this.deps.db, resetLimits(this.deps.env, email, address));
    if (wait > 0) {
      log.warn({ address }, 'password-reset mail limit reached; no mail sent');
      return;
    }
    const work: Promise<void> = this.#send(email, caller)
      .catch((err: unknown) => log.error({ err }, 'could not send a password-reset mail'))
      .finally(() => this.#pending.delete(work));
    this.#pending.add(work);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  async #send(email: string, { address, log }: Caller): Promise<void> {
    const { db, env } = this.deps;
    const user = await findUserByEmail(db, email);
    if (!user) return;
    const token = await createResetToken(db, user.id, env.RESET_TOKEN_TTL);
    const link = `${publicUrl(env)}/login?resetToken=${encodeURIComponent(token)}`;
    const minutes = Math.round(env.RESET_TOKEN_TTL / 60);
    await this.deps.mailer.send({
      to: email,
      subject: 'Reset your Fullstop QA password',
      text: `Someone asked to reset the password of your Fullstop QA account.\n\nTo choose a new password, open this link within ${minutes} minutes:\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
    });
    await audit(db, log, { type: 'password.reset-requested', userId: user.id, clientId: user.clientId, address });
  }
}
