/** Access-token lifetime, in seconds, of the second e2e server (project short-token-life). */
export const SHORT_TOKEN_TTL = 3;
