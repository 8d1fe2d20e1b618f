import {
  changePasswordRequest,
  forgotPasswordRequest,
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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../lib/access.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { noStore } from './no-store.ts';
import { authDepsOf, changePassword, login, logout, PasswordResetMails, refresh, requestCaller, resetPassword } from './service.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = authDepsOf(app);
  const resetMails = new PasswordResetMails(auth);
  app.addHook('onClose', () => resetMails.close());

  app.post(
    '/auth/login',
    {
      config: { access: access.anyone },
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Log in with email and password',
        body: loginRequest,
        response: { 200: loginResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => login(auth, request.body.email, request.body.password, requestCaller(request)),
  );

  app.post(
    '/auth/refresh-token',
    {
      config: { access: access.anyone },
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Trade a refresh token for a new pair; a token used twice revokes its whole session',
        body: refreshRequest,
        response: { 200: refreshResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => refresh(auth, request.body.token, requestCaller(request)),
  );

  app.post(
    '/auth/logout',
    {
      config: { access: access.anyone },
      schema: {
        tags: ['auth'],
        summary: "End the session of this refresh token: its refresh tokens and its access tokens stop working",
        body: logoutRequest,
        response: { 200: messageResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      await logout(auth, request.body.token, requestCaller(request));
      return { message: LOGOUT_MESSAGE };
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      config: { access: access.anyone },
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Send a password-reset link; the answer is the same whether or not the account exists or a limit was hit',
        body: forgotPasswordRequest,
        response: { 200: messageResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      await resetMails.request(request.body.email, requestCaller(request));
      return { message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { access: access.anyone },
      onSend: noStore,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the single-use token from the reset mail; ends every session of the user',
        body: resetPasswordRequest,
        response: { 200: messageResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      await resetPassword(auth, request.body.token, request.body.password, requestCaller(request));
      return { message: PASSWORD_RESET_MESSAGE };
    },
  );

  app.post(
    '/auth/change-password',
    {
      config: { access: access.signedIn },
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
      const { currentPassword, newPassword } = request.body;
      return changePassword(auth, request.principal, currentPassword, newPassword, requestCaller(request));
    },
  );
};
