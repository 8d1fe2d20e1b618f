/**
 * A failed call's words for people: the server's own message when it said something (a store's `{ message }`
 * failure or an Error), else `fallback`. Screens that say more than "try again" pass their own fallback.
 */
export function failureMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  const message = error && typeof error === 'object' && 'message' in error ? error.message : undefined;
  return typeof message === 'string' && message ? message : fallback;
}
