import { z } from 'zod';
import { text } from './text.ts';

// Where a client's mobile UI tests find their devices (issue 28, decision 0084): one provider per client, set by an
// operator. An access key goes in and never comes out (a masked hint), and is sent only to the origin it was given for.

/**
 * `appium`: any Appium 2/3 server. `browserstack` (App Automate) and `saucelabs`: their Appium hubs, the build uploaded
 * to their app storage through their REST API. `devicefarm` (AWS Device Farm): the build uploaded to the project, and
 * for each device a remote access session whose managed Appium endpoint the device's session goes to (decision 0085).
 */
export const mobileProviderKind = z.enum(['appium', 'browserstack', 'saucelabs', 'devicefarm'], { error: 'kind must be appium, browserstack, saucelabs or devicefarm' });
export type MobileProviderKind = z.infer<typeof mobileProviderKind>;

/**
 * The cloud kinds: a REST API with the build's storage, credentials required (for `devicefarm` the user name is the
 * AWS access key ID and the access key its secret access key).
 */
export const MOBILE_CLOUD_KINDS = ['browserstack', 'saucelabs', 'devicefarm'] as const;
export const isMobileCloudKind = (kind: string): kind is (typeof MOBILE_CLOUD_KINDS)[number] => (MOBILE_CLOUD_KINDS as readonly string[]).includes(kind);

/** Sauce Labs' data centers (docs.saucelabs.com/basics/data-center-endpoints). */
export const SAUCE_REGIONS = ['us-west-1', 'us-east-4', 'eu-central-1'] as const;
export const sauceRegion = z.enum(SAUCE_REGIONS, { error: `region must be one of ${SAUCE_REGIONS.join(', ')}` });
export type SauceRegion = z.infer<typeof sauceRegion>;

/** AWS Device Farm's only region (docs.aws.amazon.com/general/latest/gr/devicefarm.html). */
export const DEVICE_FARM_REGION = 'us-west-2';
/** A Device Farm project's ARN: `arn:aws:devicefarm:us-west-2:<12-digit account>:project:<id>`. */
export const DEVICE_FARM_PROJECT_ARN = /^arn:aws:devicefarm:us-west-2:\d{12}:project:[A-Za-z0-9-]{1,128}$/;
/**
 * A Device Farm desktop browser testing (TestGrid) project's ARN: `arn:aws:devicefarm:us-west-2:<account>:testgrid-project:<id>`.
 * A browser test's cloud cells on Device Farm run there (decision 0100); mobile projects cannot hold them.
 */
export const DEVICE_FARM_TESTGRID_PROJECT_ARN = /^arn:aws:devicefarm:us-west-2:\d{12}:testgrid-project:[A-Za-z0-9-]{1,128}$/;
/** An AWS access key ID (the user name of a `devicefarm` provider). */
export const AWS_ACCESS_KEY_ID = /^[A-Z0-9]{16,128}$/;

/**
 * A cloud's documented Appium hub and REST API base. BrowserStack: hub.browserstack.com and api-cloud.browserstack.com
 * (browserstack.com/docs/app-automate); Sauce Labs: per data center (docs.saucelabs.com/basics/data-center-endpoints);
 * AWS Device Farm: its API in us-west-2 for both (each device's Appium endpoint is its remote access session's).
 */
export function mobileCloudEndpoints(kind: (typeof MOBILE_CLOUD_KINDS)[number], region: SauceRegion = 'us-west-1'): { url: string; apiUrl: string } {
  if (kind === 'devicefarm') return { url: `https://devicefarm.${DEVICE_FARM_REGION}.amazonaws.com`, apiUrl: `https://devicefarm.${DEVICE_FARM_REGION}.amazonaws.com` };
  return kind === 'browserstack'
    ? { url: 'https://hub.browserstack.com/wd/hub', apiUrl: 'https://api-cloud.browserstack.com' }
    : { url: `https://ondemand.${region}.saucelabs.com/wd/hub`, apiUrl: `https://api.${region}.saucelabs.com` };
}

/**
 * The REST API a cloud's desktop and mobile browsers (not apps) are described and looked up by. BrowserStack's
 * browsers are Automate's, whose API is `api.browserstack.com` (App Automate's is `api-cloud.browserstack.com`): the
 * documented pair, both BrowserStack's own hosts; an overridden API (a test's fake) is used as it is. Sauce Labs and
 * Device Farm answer both on the same API.
 */
export function browserCloudApiUrl(kind: (typeof MOBILE_CLOUD_KINDS)[number], apiUrl: string): string {
  return kind === 'browserstack' && new URL(apiUrl).host === 'api-cloud.browserstack.com' ? 'https://api.browserstack.com' : apiUrl;
}

/** The most cloud minutes per run an operator may allow a client (a cap of 0 starts no cloud cell). */
export const MAX_CLOUD_MINUTES_PER_RUN = 100_000;

/** The extra capabilities' JSON, at most this many characters. */
export const MOBILE_CAPABILITIES_MAX_CHARS = 8192;

const httpUrl = (field: string, label: string, example: string) =>
  text(field)
    .trim()
    .min(1, { error: `the ${label} is required` })
    .max(2000, { error: `the ${label} must be at most 2000 characters` })
    .refine(
      (v) => {
        try {
          const u = new URL(v);
          return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash;
        } catch {
          return false;
        }
      },
      { error: `the ${label} must be an http(s) URL without credentials, query or fragment (e.g. ${example})` },
    );
const endpointUrl = httpUrl('url', 'Appium URL', 'http://10.0.0.5:4723/');
const apiUrl = httpUrl('apiUrl', 'REST API URL', 'https://api-cloud.browserstack.com');

/**
 * PUT /operator/clients/:id/mobile-devices. `accessKey` omitted keeps the stored one while the URL's origin stays
 * (a new origin needs it again: 400 on `accessKey`); null removes it. For a cloud kind `url` and `apiUrl` default to
 * the provider's documented hub and REST API (Sauce Labs: of `region`), and the user name and key are required.
 */
export const setMobileProviderBody = z.object({
  kind: mobileProviderKind,
  /** The Appium endpoint; required for `appium`. */
  url: endpointUrl.nullish(),
  /** A cloud's REST API base (its app storage); only for a cloud kind. */
  apiUrl: apiUrl.nullish(),
  /** Sauce Labs' data center (default us-west-1); only for `saucelabs`. */
  region: sauceRegion.nullish(),
  /** The account's user name; for `devicefarm` the AWS access key ID. */
  username: text('username').trim().max(200, { error: 'username must be at most 200 characters' }).nullish(),
  /** AWS Device Farm's project; only (and required) for `devicefarm`. */
  projectArn: text('projectArn')
    .trim()
    .regex(DEVICE_FARM_PROJECT_ARN, { error: 'projectArn must be a Device Farm project ARN in us-west-2: arn:aws:devicefarm:us-west-2:<12-digit account>:project:<id>' })
    .nullish(),
  accessKey: text('accessKey').min(1, { error: 'accessKey must not be empty (omit it to keep the stored one)' }).max(4096, { error: 'accessKey must be at most 4096 characters' }).nullish(),
  /**
   * AWS Device Farm's desktop browser testing project, where a browser test's cloud cells run; only for
   * `devicefarm`, optional (without it, its browser tests cannot have cloud cells).
   */
  testGridProjectArn: text('testGridProjectArn')
    .trim()
    .regex(DEVICE_FARM_TESTGRID_PROJECT_ARN, { error: 'testGridProjectArn must be a Device Farm desktop browser testing project ARN in us-west-2: arn:aws:devicefarm:us-west-2:<12-digit account>:testgrid-project:<id>' })
    .nullish(),
  /**
   * The most device minutes a run's cloud cells (browser tests on the device cloud) may use together; past it no
   * further cloud cell starts and the report says so. Unset: no cap of ours (the provider's plan is the only one).
   */
  cloudMinutesPerRun: z
    .number({ error: 'cloudMinutesPerRun must be a whole number of minutes' })
    .int({ error: 'cloudMinutesPerRun must be a whole number of minutes' })
    .min(0, { error: 'cloudMinutesPerRun must be 0 or more (0 starts no cloud cell)' })
    .max(MAX_CLOUD_MINUTES_PER_RUN, { error: `cloudMinutesPerRun must be at most ${MAX_CLOUD_MINUTES_PER_RUN}` })
    .nullish(),
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
  /** A cloud's REST API base, null for `appium`. */
  apiUrl: z.string().nullable(),
  /** Sauce Labs' data center when the hub is one of its own, else null. */
  region: sauceRegion.nullable(),
  username: z.string().nullable(),
  /** AWS Device Farm's project ARN, null for the others. */
  projectArn: z.string().nullable(),
  /** AWS Device Farm's desktop browser testing project (the cloud cells' browsers), null when none is set. */
  testGridProjectArn: z.string().nullable(),
  /** The cap on the device minutes a run's cloud cells use together; null: none. */
  cloudMinutesPerRun: z.number().int().nullable(),
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
