/**
 * Whether a session is stored, for the two readers in the main chunk: the header (Dashboard or Login) and the
 * portal's route guards. They read it here rather than from the HTTP client, which would bring its response
 * schemas (and zod) into the main chunk. Everything that changes the session goes through lib/http-client.ts.
 */
import { getUserData } from './auth-storage.ts';

export { isAuthenticated } from './auth-storage.ts';

/** The stored user's role: operators work in the console (/ops), clients' people in the portal (/dashboard). */
export const storedRole = (): 'client' | 'operator' | null => getUserData()?.role ?? null;
