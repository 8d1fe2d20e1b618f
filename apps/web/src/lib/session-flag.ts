/**
 * Whether a session is stored, for the two readers in the main chunk: the header (Dashboard or Login) and the
 * portal's route guards. They read it here rather than from the HTTP client, which would bring its response
 * schemas (and zod) into the main chunk. Everything that changes the session goes through lib/http-client.ts.
 */
export { isAuthenticated } from './auth-storage.ts';
