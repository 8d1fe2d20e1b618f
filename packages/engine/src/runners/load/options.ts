import { z } from 'zod';

/** Defaults chosen to be gentle on a client's production site. */
export const DEFAULT_CONNECTIONS = 10;
export const DEFAULT_DURATION_SECONDS = 10;
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
/** A load test never runs longer than this, whatever the manifest says. */
export const MAX_DURATION_SECONDS = 300;

// Requests are written to the socket as they are: nothing may end a line or the request line early.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const NO_LINE_BREAK = /^[^\r\n\0]*$/;
const isRequestTarget = (path: string) => [...path].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f);

const request = z
  .object({
    path: z
      .string()
      .startsWith('/', 'must be a path starting with /')
      .refine(isRequestTarget, 'must not contain spaces or control characters (percent-encode them)'),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']).default('GET'),
    headers: z
      .record(z.string().regex(HEADER_NAME, 'must be a header name'), z.string().regex(NO_LINE_BREAK, 'must not contain line breaks'))
      .optional(),
    body: z.string().optional(),
  })
  .strict();

export const loadInput = z.object({
  options: z
    .object({
      /** Requests to cycle through, all on the website's origin; default: GET of the base URL. */
      requests: z.array(request).min(1).optional(),
      connections: z.number().int().min(1).max(1000).default(DEFAULT_CONNECTIONS),
      durationSeconds: z.number().positive().max(MAX_DURATION_SECONDS).default(DEFAULT_DURATION_SECONDS),
      /** When set, the run ends after exactly this many requests instead of after a duration. */
      amount: z.number().int().min(1).max(10_000_000).optional(),
      timeoutSeconds: z.number().positive().max(120).default(DEFAULT_REQUEST_TIMEOUT_SECONDS),
    })
    .strict(),
  thresholds: z
    .object({
      maxP95Ms: z.number().positive().optional(),
      maxAverageMs: z.number().positive().optional(),
      maxResponseMs: z.number().positive().optional(),
      /** Percent of failed requests, 0-100. */
      maxFailedRate: z.number().min(0).max(100).optional(),
      minRequestsPerSecond: z.number().positive().optional(),
    })
    .strict(),
});
export type LoadInput = z.output<typeof loadInput>;
export type LoadThresholds = LoadInput['thresholds'];
