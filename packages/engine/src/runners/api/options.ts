import { z } from 'zod';

export const DEFAULT_API_TIMEOUT_MS = 10_000;

const jsonType = z.enum(['string', 'number', 'boolean', 'object', 'array', 'null']);

const apiRequest = z
  .object({
    name: z.string().min(1).optional(),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']).default('GET'),
    /** A path on the website (or a URL on an allowed origin). */
    path: z.string().min(1),
    headers: z.record(z.string(), z.string()).default({}),
    /** A JSON body (sent as application/json) or a string sent as is. */
    body: z.unknown().optional(),
    timeoutMs: z.number().int().positive().max(120_000).default(DEFAULT_API_TIMEOUT_MS),
    expect: z
      .object({
        status: z.union([z.number().int(), z.array(z.number().int()).min(1)]).default(200),
        /** Dotted JSON paths (`items.0.name`) to the exact value expected there. */
        json: z.record(z.string(), z.unknown()).optional(),
        /** Dotted JSON paths to the type expected there. */
        jsonTypes: z.record(z.string(), jsonType).optional(),
        /** Response headers (lower-case names) and the text each must contain. */
        headers: z.record(z.string(), z.string()).optional(),
        maxLatencyMs: z.number().positive().optional(),
      })
      .strict()
      .default({ status: 200 }),
  })
  .strict();

export const apiInput = z.object({
  options: z.object({ requests: z.array(apiRequest).min(1) }).strict(),
  thresholds: z.object({ maxLatencyMs: z.number().positive().optional() }).strict(),
});
export type ApiRequest = z.output<typeof apiRequest>;
