import { z } from 'zod';

/**
 * How long a client's runs, their reports and evidence, and its uploaded builds are kept. The server's sweep
 * and the privacy policy read these constants, so the published text always states the retention applied.
 */
export const RETENTION_DEFAULT_DAYS = 90;
export const RETENTION_MIN_DAYS = 7;
export const RETENTION_MAX_DAYS = 3650;

/** What the sweep deletes and what it keeps, in the words the portal and the privacy policy use. */
export const RETENTION_DELETES =
  'Test runs with their reports, logs, screenshots and traces, and uploaded builds, once they are older than the retention period.';
export const RETENTION_KEEPS =
  "Each test's latest run is kept, however old, so its latest result and report stay available; the build in use is kept until it is replaced or deleted.";

export const retentionDays = z
  .number({ error: 'days is required (a whole number of days)' })
  .int({ error: 'days must be a whole number of days' })
  .min(RETENTION_MIN_DAYS, { error: `days must be at least ${RETENTION_MIN_DAYS}` })
  .max(RETENTION_MAX_DAYS, { error: `days must be at most ${RETENTION_MAX_DAYS}` });

/** PUT /operator/clients/:id/retention: a number of days, or null for the default. */
export const setRetentionRequest = z.strictObject({ days: retentionDays.nullable() });
export type SetRetentionRequest = z.infer<typeof setRetentionRequest>;

/** GET /operator/clients/:id/retention and GET /clientProfile/retention/:id. */
export const retentionResponse = z.object({
  /** The retention applied, in days. */
  days: z.number().int(),
  /** True when the client has no agreed retention of its own and the default applies. */
  isDefault: z.boolean(),
  defaultDays: z.number().int(),
  deletes: z.string(),
  keeps: z.string(),
});
export type RetentionResponse = z.infer<typeof retentionResponse>;

/** The retention the policy states and the sweep applies when a client has none set. */
export function retentionSummary(days: number | null, defaultDays: number = RETENTION_DEFAULT_DAYS): RetentionResponse {
  return { days: days ?? defaultDays, isDefault: days === null, defaultDays, deletes: RETENTION_DELETES, keeps: RETENTION_KEEPS };
}

/** The API paths of retention and of deleting a build (the server registers the same strings). */
export const retentionApiPaths = {
  operator: (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/retention`,
  client: (clientId: string) => `/clientProfile/retention/${encodeURIComponent(clientId)}`,
  build: (platform: 'android' | 'ios', clientId: string) => `/upload/${platform}/${encodeURIComponent(clientId)}`,
} as const;
