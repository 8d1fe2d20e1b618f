import {
  forgotPasswordRequest,
  INVALID_CREDENTIALS_MESSAGE,
  loginRequest,
  loginResponse,
  messageResponse,
  refreshRequest,
  refreshResponse,
  resetPasswordRequest,
  FORGOT_PASSWORD_MESSAGE,
  PASSWORD_RESET_MESSAGE,
} from '@fullstop/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicUrl } from '../../config/env.ts';
import { users } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, TooManyRequestsError, UnauthorizedError } from '../../lib/errors.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { normaliseEmail } from '../accounts/service.ts';
import { verifyPassword } from './passwords.ts';
import { consumeResetToken, createResetToken, setPassword } from './reset.ts';
import { consumeRefreshToken, findUserById, issueRefreshToken } from './sessions.ts';
import { accountKey, addressKey, clearFailures, recordFailure, secondsUntilAllowed, throttleMessage } from './throttle.ts';
import { signAccessToken } from './tokens.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { env } = app;
  const limits = {
    perAccount: env.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    perAddress: env.LOGIN_MAX_FAILURES_PER_ADDRESS,
    windowSeconds: env.LOGIN_THROTTLE_WINDOW,
  };
  // Reset mails are sent after the answer, so the answer's timing says nothing about the account.
  const pendingMail = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pendingMail]);
  });

  app.post(
    '/auth/login',
    {
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
      const wait = await secondsUntilAllowed(app.db, limits, email, address);
      if (wait > 0) {
        await audit(app.db, request.log, { type: 'login.throttled', address, details: { email } });
        throw new TooManyRequestsError(throttleMessage(wait), wait);
      }
      const [user] = await app.db.select().from(users).where(eq(users.email, email)).limit(1);
      const ok = await verifyPassword(user?.passwordHash ?? null, request.body.password);
      if (!user || !ok) {
        await recordFailure(app.db, limits.windowSeconds, [accountKey(email), addressKey(address)]);
        await audit(app.db, request.log, { type: 'login.failure', userId: user?.id, clientId: user?.clientId, address, details: { email } });
        throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE, 'INVALID_CREDENTIALS');
      }
      await clearFailures(app.db, accountKey(email));
      const accessToken = await signAccessToken(app.keys.jwt, { userId: user.id, clientId: user.clientId, role: user.role }, env.ACCESS_TOKEN_TTL);
      const refreshToken = await issueRefreshToken(app.db, user.id, env.REFRESH_TOKEN_TTL);
      await audit(app.db, request.log, { type: 'login.success', userId: user.id, clientId: user.clientId, address });
      return {
        accessToken,
        refreshToken,
        userData: { id: user.id, username: user.username, email: user.email, role: user.role, clientId: user.clientId },
      };
    },
  );

  app.post(
    '/auth/refresh-token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Trade a refresh token for a new pair; a token used twice revokes its whole family',
        body: refreshRequest,
        response: { 200: refreshResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const result = await consumeRefreshToken(app.db, request.body.token);
      if (!result.ok) {
        if (result.reason === 'reused') {
          await audit(app.db, request.log, { type: 'token.reuse', userId: result.userId, address: request.ip });
        }
        throw new UnauthorizedError('Invalid or expired refresh token', 'INVALID_REFRESH_TOKEN');
      }
      const user = await findUserById(app.db, result.userId);
      if (!user) throw new UnauthorizedError('Invalid or expired refresh token', 'INVALID_REFRESH_TOKEN');
      const accessToken = await signAccessToken(app.keys.jwt, { userId: user.id, clientId: user.clientId, role: user.role }, env.ACCESS_TOKEN_TTL);
      const refreshToken = await issueRefreshToken(app.db, user.id, env.REFRESH_TOKEN_TTL, result.familyId);
      return { accessToken, refreshToken };
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a password-reset link; the answer is the same whether or not the account exists',
        body: forgotPasswordRequest,
        response: { 200: messageResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      const address = request.ip;
      const log = request.log;
      const work = (async () => {
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
      })()
        .catch((err: unknown) => log.error({ err }, 'could not send a password-reset mail'))
        .finally(() => pendingMail.delete(work));
      pendingMail.add(work);
      return { message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the single-use token from the reset mail',
        body: resetPasswordRequest,
        response: { 200: messageResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const user = await consumeResetToken(app.db, request.body.token);
      if (!user) throw new AppError(400, 'INVALID_RESET_TOKEN', 'This reset link is invalid or has expired. Please ask for a new one.', { field: 'token' });
      await setPassword(app.db, user.id, request.body.password);
      await clearFailures(app.db, accountKey(user.email));
      await audit(app.db, request.log, { type: 'password.reset', userId: user.id, clientId: user.clientId, address: request.ip });
      return { message: PASSWORD_RESET_MESSAGE };
    },
  );
};
