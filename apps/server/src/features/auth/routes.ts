import {
  changePasswordRequest,
  forgotPasswordRequest,
  INVALID_CREDENTIALS_MESSAGE,
  loginRequest,
  loginResponse,
  LOGOUT_MESSAGE,
  logoutRequest,
  messageResponse,
  refreshRequest,
  refreshResponse,
  resetPasswordRequest,
  FORGOT_PASSWORD_MESSAGE,
  PASSWORD_RESET_MESSAGE,
} from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicUrl } from '../../config/env.ts';
import { users } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { normaliseEmail } from '../accounts/service.ts';
import { noStore } from './no-store.ts';
import { verifyPassword } from './passwords.ts';
import { consumeResetToken, createResetToken, setPassword } from './reset.ts';
import { consumeRefreshToken, findSessionOfRefreshToken, findUserById, issueRefreshToken } from './sessions.ts';
import {
  accountKey,
  addressKey,
  clearFailures,
  giveBack,
  resetAccountKey,
  resetAddressKey,
  takeAttempt,
  throttleMessage,
  isTrustedAddress,
  trustAddress,
  trustedAccountKey,
} from './throttle.ts';
import { signAccessToken } from './tokens.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { env } = app;
  // The source address first: a source over its limit does not even write a count for the email it names.
  const loginLimits = (accountLimitKey: string, address: string) => [
    { key: addressKey(address), max: env.LOGIN_MAX_FAILURES_PER_ADDRESS, windowSeconds: env.LOGIN_THROTTLE_WINDOW },
    { key: accountLimitKey, max: env.LOGIN_MAX_FAILURES_PER_ACCOUNT, windowSeconds: env.LOGIN_THROTTLE_WINDOW },
  ];
  const resetLimits = (email: string, address: string) => [
    { key: resetAddressKey(address), max: env.FORGOT_PASSWORD_MAX_PER_ADDRESS, windowSeconds: env.FORGOT_PASSWORD_WINDOW },
    { key: resetAccountKey(email), max: env.FORGOT_PASSWORD_MAX_PER_ACCOUNT, windowSeconds: env.FORGOT_PASSWORD_WINDOW },
  ];
  const issueTokens = async (user: { id: string; clientId: string | null; role: 'client' | 'operator' }, sessionId: string) => ({
    accessToken: await signAccessToken(app.keys.jwt, { userId: user.id, clientId: user.clientId, role: user.role, sessionId }, env.ACCESS_TOKEN_TTL),
    refreshToken: await issueRefreshToken(app.db, user.id, env.REFRESH_TOKEN_TTL, sessionId),
  });

  // Reset mails are sent after the answer, so the answer's timing says nothing about the account.
  const pendingMail = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pendingMail]);
  });
  const sendResetMail = async (email: string, address: string, log: FastifyBaseLogger) => {
    const [user] = await app.db.select({ id: users.id, clientId: users.clientId }).from(users).where(eq(users.email, email)).limit(1);
    if (!user) return;
    const token = await createResetToken(app.db, user.id, env.RESET_TOKEN_TTL);
    const link = `${publicUrl(env)}/login?resetToken=${encodeURIComponent(token)}`;
    const minutes = Math.round(env.RESET_TOKEN_TTL / 60);
    await app.mailer.send({
      to: email,
      subject: 'Reset your Fullstop QA password',
      text: `Someone asked to reset the password of your Fullstop QA account.\n\nTo choose a new password, open this link within ${minutes} minutes:\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
    });
    await audit(app.db, log, { type: 'password.reset-requested', userId: user.id, clientId: user.clientId, address });
  };

  app.post(
    '/auth/login',
    {
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Log in with email and password',
        body: loginRequest,
        response: { 200: loginResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      const address = request.ip;
      // An address the owner proved itself from has its own count for the account (same limit): a lock-out
      // caused from elsewhere does not reach it.
      const accountLimitKey = (await isTrustedAddress(app.db, email, address)) ? trustedAccountKey(email, address) : accountKey(email);
      const limits = loginLimits(accountLimitKey, address);
      // Counted before the password is checked, so concurrent guesses cannot all slip under the limit.
      const wait = await takeAttempt(app.db, limits);
      if (wait > 0) {
        await audit(app.db, request.log, { type: 'login.throttled', address, details: { email } });
        throw new TooManyRequestsError(throttleMessage(wait), wait);
      }
      const [user] = await app.db.select().from(users).where(eq(users.email, email)).limit(1);
      const ok = await verifyPassword(user?.passwordHash ?? null, request.body.password);
      if (!user || !ok) {
        await audit(app.db, request.log, { type: 'login.failure', userId: user?.id, clientId: user?.clientId, address, details: { email } });
        throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE, 'INVALID_CREDENTIALS');
      }
      // Not a failure after all: the account's count starts again and the address's attempt is taken back.
      await clearFailures(app.db, accountLimitKey);
      await giveBack(app.db, [addressKey(address)]);
      await trustAddress(app.db, email, address);
      const sessionId = await app.authSessions.start(user.id);
      const tokens = await issueTokens(user, sessionId);
      await audit(app.db, request.log, { type: 'login.success', userId: user.id, clientId: user.clientId, address });
      return {
        ...tokens,
        userData: { id: user.id, username: user.username, email: user.email, role: user.role, clientId: user.clientId },
      };
    },
  );

  app.post(
    '/auth/refresh-token',
    {
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Trade a refresh token for a new pair; a token used twice revokes its whole session',
        body: refreshRequest,
        response: { 200: refreshResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const result = await consumeRefreshToken(app.db, request.body.token);
      if (!result.ok) {
        if (result.reason === 'reused' && result.userId && result.familyId) {
          const owner = await findUserById(app.db, result.userId);
          if (owner) await app.authSessions.revokeSession(result.familyId, owner);
          await audit(app.db, request.log, { type: 'token.reuse', userId: result.userId, address: request.ip });
        }
        throw new UnauthorizedError('Invalid or expired refresh token', 'INVALID_REFRESH_TOKEN');
      }
      const user = await findUserById(app.db, result.userId);
      if (!user) throw new UnauthorizedError('Invalid or expired refresh token', 'INVALID_REFRESH_TOKEN');
      // The new pair stays in the consumed token's session: if a reset revoked it meanwhile, both are dead at once.
      return issueTokens(user, result.familyId);
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: "End the session of this refresh token: its refresh tokens and its access tokens stop working",
        body: logoutRequest,
        response: { 200: messageResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      // The same answer for a known, unknown or already ended session: logging out twice is not an error.
      const session = await findSessionOfRefreshToken(app.db, request.body.token);
      const user = session ? await findUserById(app.db, session.userId) : null;
      if (session && user && (await app.authSessions.revokeSession(session.sessionId, user))) {
        await audit(app.db, request.log, { type: 'logout', userId: user.id, clientId: user.clientId, address: request.ip });
      }
      return { message: LOGOUT_MESSAGE };
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Send a password-reset link; the answer is the same whether or not the account exists or a limit was hit',
        body: forgotPasswordRequest,
        response: { 200: messageResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      const address = request.ip;
      const log = request.log;
      // Counted for every address asked for, known or not, so the limit reveals nothing either.
      const wait = await takeAttempt(app.db, resetLimits(email, address));
      if (wait > 0) {
        log.warn({ address }, 'password-reset mail limit reached; no mail sent');
        return { message: FORGOT_PASSWORD_MESSAGE };
      }
      const work: Promise<void> = sendResetMail(email, address, log)
        .catch((err: unknown) => log.error({ err }, 'could not send a password-reset mail'))
        .finally(() => pendingMail.delete(work));
      pendingMail.add(work);
      return { message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the single-use token from the reset mail; ends every session of the user',
        body: resetPasswordRequest,
        response: { 200: messageResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const user = await consumeResetToken(app.db, request.body.token);
      if (!user) throw new AppError(400, 'INVALID_RESET_TOKEN', 'This reset link is invalid or has expired. Please ask for a new one.', { field: 'token' });
      await setPassword(app.db, app.authSessions, user, request.body.password);
      // The mail proves the owner: a lock-out an attacker caused by guessing ends here, and this address is
      // spared the next one.
      await clearFailures(app.db, accountKey(user.email));
      await clearFailures(app.db, trustedAccountKey(user.email, request.ip));
      await trustAddress(app.db, user.email, request.ip);
      await audit(app.db, request.log, { type: 'password.reset', userId: user.id, clientId: user.clientId, address: request.ip });
      return { message: PASSWORD_RESET_MESSAGE };
    },
  );

  app.post(
    '/auth/change-password',
    {
      preHandler: app.authenticate,
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Change the password of the signed-in user: every session ends, the caller gets a new pair',
        security: [{ bearer: [] }],
        body: changePasswordRequest,
        response: { 200: refreshResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const userId = request.principal?.via === 'bearer' ? request.principal.userId : null;
      if (!userId) throw new ForbiddenError('Only a signed-in user can change a password');
      const user = await findUserById(app.db, userId);
      if (!user) throw new UnauthorizedError('Invalid or expired access token', 'INVALID_TOKEN');
      const address = request.ip;
      // A stolen access token must not become a way around the login throttle: the same counts apply.
      const accountLimitKey = (await isTrustedAddress(app.db, user.email, address)) ? trustedAccountKey(user.email, address) : accountKey(user.email);
      const wait = await takeAttempt(app.db, loginLimits(accountLimitKey, address));
      if (wait > 0) throw new TooManyRequestsError(throttleMessage(wait), wait);
      if (!(await verifyPassword(user.passwordHash, request.body.currentPassword))) {
        await audit(app.db, request.log, { type: 'login.failure', userId: user.id, clientId: user.clientId, address, details: { email: user.email, via: 'change-password' } });
        throw new AppError(400, 'INVALID_CURRENT_PASSWORD', 'The current password is not right.', { field: 'currentPassword' });
      }
      await giveBack(app.db, [addressKey(address)]);
      await clearFailures(app.db, accountLimitKey);
      await setPassword(app.db, app.authSessions, user, request.body.newPassword);
      await audit(app.db, request.log, { type: 'password.changed', userId: user.id, clientId: user.clientId, address });
      return issueTokens(user, await app.authSessions.start(user.id));
    },
  );
};
