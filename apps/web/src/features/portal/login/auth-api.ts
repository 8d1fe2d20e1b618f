import { apiPaths, messageResponse, type ResetPasswordRequest } from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';

// Logging in and out are the session client's own (http.startSession, http.endSession).

export async function requestPasswordReset(email: string): Promise<void> {
  await http.request(apiPaths.forgotPassword, { method: 'POST', auth: 'none', json: { email }, responseType: 'none' });
}

/** Sets a new password with the single-use token of a reset mail; answers the server's confirmation. */
export async function resetPassword(request: ResetPasswordRequest): Promise<string> {
  const data = await http.request(apiPaths.resetPassword, { method: 'POST', auth: 'none', json: request });
  return messageResponse.parse(data).message;
}
