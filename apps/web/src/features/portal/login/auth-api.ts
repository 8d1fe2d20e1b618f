import { loginResponse, type LoginRequest, type LoginResponse } from '@fullstop/contracts';
import { http } from '@/lib/http-client.ts';

export async function login(credentials: LoginRequest): Promise<LoginResponse> {
  const data = await http.request('/auth/login', { method: 'POST', auth: 'none', json: credentials });
  return loginResponse.parse(data);
}

export async function requestPasswordReset(email: string): Promise<void> {
  await http.request('/auth/forgot-password', { method: 'POST', auth: 'none', json: { email }, responseType: 'none' });
}
