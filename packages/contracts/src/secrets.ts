import { z } from 'zod';
import { idString } from './common.ts';

/**
 * A client's secrets for its suite's login (decision 0060): set by operators, named in the suite's manifest as
 * `{{secret:name}}`, sent to the runner of each attempt, never shown again: listing gives names and dates only.
 */
export const SECRET_NAME_RULE = /^[A-Za-z0-9_.-]{1,64}$/;
/** Shorter values would be masked in reports wherever those characters happen to appear. */
export const SECRET_MIN_CHARS = 4;
export const SECRET_MAX_CHARS = 4096;

export const secretName = z
  .string({ error: 'name is required' })
  .regex(SECRET_NAME_RULE, { error: 'name must be 1-64 letters, digits and . _ - (the name in {{secret:name}})' });

export const secretParams = z.object({ id: idString, name: secretName });

export const setSecretRequest = z.strictObject({
  value: z
    .string({ error: 'value is required (a string)' })
    .min(SECRET_MIN_CHARS, { error: `value must be at least ${SECRET_MIN_CHARS} characters, so that it can be masked in reports` })
    .max(SECRET_MAX_CHARS, { error: `value must be at most ${SECRET_MAX_CHARS} characters` }),
});
export type SetSecretRequest = z.infer<typeof setSecretRequest>;

export const secretInfo = z.object({ name: z.string(), setAt: z.string() });
export type SecretInfo = z.infer<typeof secretInfo>;

export const secretListResponse = z.object({
  secrets: z.array(secretInfo),
  /** Secrets the client's current suite's login names that are not set: its tests would end in an error. */
  missing: z.array(z.string()),
});
export type SecretListResponse = z.infer<typeof secretListResponse>;
