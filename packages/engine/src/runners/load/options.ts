import { z } from 'zod';
import { maxTarget, parseDuration, stagesSeconds } from './stages.ts';

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

export const MAX_CONNECTIONS = 1000;
/** A load test may be run by this many generators at most, each on any worker (issue 12). */
export const MAX_GENERATORS = 16;

/** A k6-style stage: ramp to `target` connections over `duration` ('30s', '1m30s', '500ms'). */
const stage = z
  .object({
    duration: z
      .string()
      .transform((text, ctx) => {
        const seconds = parseDuration(text.trim());
        if (seconds === undefined) {
          ctx.addIssue({ code: 'custom', message: `must be a duration such as '30s', '1m30s' or '500ms' (got '${text}')` });
          return z.NEVER;
        }
        return seconds;
      }),
    target: z
      .number({ error: 'must be a number of connections' })
      .int('must be a whole number of connections')
      .min(0, 'must be 0 or more connections')
      .max(MAX_CONNECTIONS, `must be at most ${MAX_CONNECTIONS} connections`),
  })
  .strict()
  .transform(({ duration, target }) => ({ durationSeconds: duration, target }));

export const loadInput = z.object({
  options: z
    .object({
      /** Requests to cycle through, all on the website's origin; default: GET of the base URL. */
      requests: z.array(request).min(1).optional(),
      /** Connections kept open for the whole run (default 10); not with `stages`. */
      connections: z.number().int().min(1).max(MAX_CONNECTIONS).optional(),
      /** How long the run sends requests (default 10 s); not with `stages` or `amount`. */
      durationSeconds: z.number().positive().max(MAX_DURATION_SECONDS).optional(),
      /**
       * At most this many requests a second in all, shared by the connections (each sends its share every second,
       * then waits for the next): a visitors' pace instead of as fast as the site answers. Not with `stages`.
       */
      rate: z
        .number({ error: 'must be a number of requests a second' })
        .int('must be a whole number of requests a second')
        .min(1, 'must be at least 1 request a second')
        .max(1_000_000, 'must be at most 1000000 requests a second')
        .optional(),
      /** When set, the run ends after exactly this many requests instead of after a duration. */
      amount: z.number().int().min(1).max(10_000_000).optional(),
      /** k6-style stages: connections ramp from each stage's start to its target over its duration. */
      stages: z
        .array(stage)
        .min(1, 'must list at least one stage')
        .max(100, 'must list at most 100 stages')
        .superRefine((stages, ctx) => {
          const seconds = stagesSeconds(stages);
          if (seconds <= 0) ctx.addIssue({ code: 'custom', message: 'must last longer than 0 seconds in total' });
          if (seconds > MAX_DURATION_SECONDS) {
            ctx.addIssue({ code: 'custom', message: `must last at most ${MAX_DURATION_SECONDS} seconds in total (they last ${seconds} s)` });
          }
          if (maxTarget(stages) === 0) ctx.addIssue({ code: 'custom', message: 'must have at least one stage with a target above 0 connections' });
        })
        .optional(),
      timeoutSeconds: z.number().positive().max(120).default(DEFAULT_REQUEST_TIMEOUT_SECONDS),
      /** Load generators running the test together, on any workers; the connections (or requests) are shared out. */
      generators: z
        .number({ error: `must be a number of generators from 1 to ${MAX_GENERATORS}` })
        .int('must be a whole number of generators')
        .min(1, 'must be at least 1 generator')
        .max(MAX_GENERATORS, `must be at most ${MAX_GENERATORS} generators`)
        .default(1),
    })
    .strict()
    .superRefine((options, ctx) => {
      // Every generator opens at least one connection (and makes at least one request): none would idle.
      const shared = options.stages ? maxTarget(options.stages) : Math.min(options.connections ?? DEFAULT_CONNECTIONS, options.amount ?? Infinity);
      if (options.generators > shared) {
        const what = options.stages ? 'the largest stage target' : options.amount !== undefined && options.amount < (options.connections ?? DEFAULT_CONNECTIONS) ? 'the amount of requests' : 'the connections';
        ctx.addIssue({
          code: 'custom',
          path: ['generators'],
          message: `must be at most ${what} (${shared}): each generator needs at least one connection; lower generators or raise ${what}`,
        });
      }
      // Each connection sends at least one request a second: a share of 0 would be no limit at all.
      const connections = Math.min(options.connections ?? DEFAULT_CONNECTIONS, options.amount ?? Infinity);
      if (options.rate !== undefined && !options.stages && options.rate < connections) {
        ctx.addIssue({
          code: 'custom',
          path: ['rate'],
          message: `must be at least the connections (${connections}): each connection sends at least one request a second; lower connections or raise rate`,
        });
      }
      if (!options.stages) return;
      for (const field of ['connections', 'durationSeconds', 'amount', 'rate'] as const) {
        if (options[field] === undefined) continue;
        const reason =
          field === 'connections' ? 'each stage sets its own target connections' : field === 'rate' ? 'the stages set the pace by their connections' : 'the stages set how long the run lasts';
        ctx.addIssue({ code: 'custom', path: [field], message: `cannot be set together with stages: ${reason}` });
      }
    }),
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
