import { z } from 'zod';
import { text } from './text.ts';

// Where a client's mobile UI tests find their devices (issue 28, decision 0084): one provider per client, set by an
// operator. An access key goes in and never comes out (a masked hint), and is sent only to the origin it was given for.

/** `appium` now; BrowserStack, Sauce Labs and AWS Device Farm (their Appium endpoints) are the next slice. */
export const mobileProviderKind = z.enum(['appium'], { error: 'kind must be appium (cloud providers come next)' });
export type MobileProviderKind = z.infer<typeof mobileProviderKind>;

/** The extra capabilities' JSON, at most this many characters. */
export const MOBILE_CAPABILITIES_MAX_CHARS = 8192;

const endpointUrl = text('url')
  .trim()
  .min(1, { error: 'the Appium URL is required' })
  .max(2000, { error: 'the Appium URL must be at most 2000 characters' })
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash;
      } catch {
        return false;
      }
    },
    { error: 'the Appium URL must be an http(s) URL without credentials, query or fragment (e.g. http://10.0.0.5:4723/)' },
  );

/**
 * PUT /operator/clients/:id/mobile-devices. `accessKey` omitted keeps the stored one while the URL's origin stays
 * (a new origin needs it again: 400 on `accessKey`); null removes it.
 */
export const setMobileProviderBody = z.object({
  kind: mobileProviderKind,
  url: endpointUrl,
  username: text('username').trim().max(200, { error: 'username must be at most 200 characters' }).nullish(),
  accessKey: text('accessKey').min(1, { error: 'accessKey must not be empty (omit it to keep the stored one)' }).max(4096, { error: 'accessKey must be at most 4096 characters' }).nullish(),
  /** Capabilities the provider adds to every session (a JSON object). */
  capabilities: z
    .record(z.string(), z.unknown(), { error: 'capabilities must be a JSON object' })
    .nullish()
    .refine((v) => v == null || JSON.stringify(v).length <= MOBILE_CAPABILITIES_MAX_CHARS, { error: `capabilities must be at most ${MOBILE_CAPABILITIES_MAX_CHARS} characters of JSON` }),
});
export type SetMobileProviderBody = z.infer<typeof setMobileProviderBody>;

/** A provider as an operator sees it: everything but the key, which is a hint. */
export const mobileProvider = z.object({
  kind: mobileProviderKind,
  url: z.string(),
  username: z.string().nullable(),
  /** "••••3f9a", or null when no key is stored. */
  accessKeyHint: z.string().nullable(),
  capabilities: z.record(z.string(), z.unknown()).nullable(),
  updatedAt: z.string(),
});
export type MobileProvider = z.infer<typeof mobileProvider>;

export const mobileProviderResponse = z.object({ provider: mobileProvider.nullable() });
export type MobileProviderResponse = z.infer<typeof mobileProviderResponse>;

/** What a client's people see: whether a provider is set, its kind and host; never the key, user or URL path. */
export const clientMobileProviderResponse = z.object({
  set: z.boolean(),
  kind: mobileProviderKind.nullable(),
  host: z.string().nullable(),
});
export type ClientMobileProviderResponse = z.infer<typeof clientMobileProviderResponse>;

/** POST /operator/clients/:id/mobile-devices/test: what `GET <url>/status` answered. */
export const mobileProviderTestResponse = z.object({
  ok: z.boolean(),
  status: z.number().int().nullable(),
  message: z.string(),
});
export type MobileProviderTestResponse = z.infer<typeof mobileProviderTestResponse>;

export const mobileDevicesApiPaths = {
  operator: (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/mobile-devices`,
  test: (clientId: string) => `/operator/clients/${encodeURIComponent(clientId)}/mobile-devices/test`,
  client: (clientId: string) => `/clientProfile/mobile-devices/${encodeURIComponent(clientId)}`,
} as const;
