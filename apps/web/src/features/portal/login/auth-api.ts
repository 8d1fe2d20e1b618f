import {
  loginResponse,
  messageResponse,
  type LoginRequest,
  type LoginResponse,
  type ResetPasswordRequest,
} from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';

export async function login(credentials: LoginRequest): Promise<LoginResponse> {
  const data = await http.request('/auth/login', { method: 'POST', auth: 'none', json: credentials });
  return loginResponse.parse(data);
}

export async function requestPasswordReset(email: string): Promise<void> {
  await http.request('/auth/forgot-password', { method: 'POST', auth: 'none', json: { email }, responseType: 'none' });
}

/** Sets a new password with the single-use token of a reset mail; answers the server's confirmation. */
export async function resetPassword(request: ResetPasswordRequest): Promise<string> {
  const data = await http.request('/auth/reset-password', { method: 'POST', auth: 'none', json: request });
  return messageResponse.parse(data).message;
}
