import {
  DEVICE_FARM_PROJECT_ARN,
  DEVICE_FARM_TESTGRID_PROJECT_ARN,
  MAX_CLOUD_MINUTES_PER_RUN,
  isMobileCloudKind,
  MOBILE_CAPABILITIES_MAX_CHARS,
  mobileCloudEndpoints,
  type MobileProviderKind,
  type MobileProvider,
  mobileDevicesApiPaths,
  type MobileProviderResponse,
  mobileProviderResponse,
  type MobileProviderTestResponse,
  mobileProviderTestResponse,
  SAUCE_REGIONS,
  type SauceRegion,
  type SetMobileProviderBody,
} from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { Card } from '../../components/card.tsx';
import { Notice, type NoticeText } from '../../components/notice.tsx';
import { SelectField, TextAreaField, TextField } from '../../components/text-field.tsx';
import { portalApi } from '../../store/portal-api.ts';

const api = portalApi.enhanceEndpoints({ addTagTypes: ['OpsMobileDevices'] }).injectEndpoints({
  endpoints: (build) => ({
    getOpsMobileProvider: build.query<MobileProviderResponse, string>({
      query: (clientId) => ({ url: mobileDevicesApiPaths.operator(clientId), schema: mobileProviderResponse }),
      providesTags: (_r, _e, clientId) => [{ type: 'OpsMobileDevices', id: clientId }],
    }),
    setOpsMobileProvider: build.mutation<MobileProviderResponse, { clientId: string; body: SetMobileProviderBody }>({
      query: ({ clientId, body }) => ({ url: mobileDevicesApiPaths.operator(clientId), method: 'PUT', json: body, schema: mobileProviderResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsMobileDevices', id: clientId }],
    }),
    removeOpsMobileProvider: build.mutation<unknown, string>({
      query: (clientId) => ({ url: mobileDevicesApiPaths.operator(clientId), method: 'DELETE' }),
      invalidatesTags: (_r, _e, clientId) => [{ type: 'OpsMobileDevices', id: clientId }],
    }),
    testOpsMobileProvider: build.mutation<MobileProviderTestResponse, string>({
      query: (clientId) => ({ url: mobileDevicesApiPaths.test(clientId), method: 'POST', schema: mobileProviderTestResponse }),
    }),
  }),
});

type Field = 'url' | 'apiUrl' | 'username' | 'accessKey' | 'projectArn' | 'testGridProjectArn' | 'cloudMinutesPerRun' | 'capabilities';
/** The fields a 400 can name that show their error under them (a region's goes to the notice). */
const FIELDS: readonly string[] = ['url', 'apiUrl', 'username', 'accessKey', 'projectArn', 'testGridProjectArn', 'cloudMinutesPerRun', 'capabilities'];
const KIND_OPTIONS = [
  { value: 'appium', label: 'Appium server (a device lab, an emulator host)' },
  { value: 'browserstack', label: 'BrowserStack App Automate' },
  { value: 'saucelabs', label: 'Sauce Labs' },
  { value: 'devicefarm', label: 'AWS Device Farm' },
] as const;
const KIND_NAMES: Record<MobileProviderKind, string> = { appium: 'Appium', browserstack: 'BrowserStack', saucelabs: 'Sauce Labs', devicefarm: 'AWS Device Farm' };
const REGION_OPTIONS = SAUCE_REGIONS.map((r) => ({ value: r, label: r }));
/** Where an operator finds a cloud's user name and access key. */
const KEY_HINTS: Record<MobileProviderKind, string> = {
  appium: 'Only if the server asks for them (HTTP basic auth).',
  browserstack: 'In BrowserStack: App Automate dashboard › Access Key (the user name and key shown there). Each build is uploaded to its app storage once.',
  saucelabs: 'In Sauce Labs: User settings › Access Key, and the user name beside it. Choose the data center the account is in.',
  devicefarm:
    'In AWS IAM: an access key of a user allowed the Device Farm calls (CreateUpload, GetUpload, ListDevices, CreateRemoteAccessSession, GetRemoteAccessSession, StopRemoteAccessSession, ListArtifacts, GetProject). The project ARN is in the Device Farm console › the project › Project settings (us-west-2). Each build is uploaded to the project once.',
};
/** What each provider costs the client's account per run. */
const COST_HINTS: Record<MobileProviderKind, string> = {
  appium: 'Runs on the devices of that server: nothing is billed by us or a cloud.',
  browserstack: 'Runs on BrowserStack’s real devices, billed to its account (its plan’s parallel sessions and minutes).',
  saucelabs: 'Runs on Sauce Labs’ real devices, billed to its account (its plan’s concurrency and minutes).',
  devicefarm: 'Runs on Device Farm’s real devices in us-west-2, billed in device minutes from each device’s session start to its stop (stopped as soon as its specs end).',
};

/** The field a 400 names (`{ field }` in the server's answer), when it is one of the form's. */
function fieldOf(failure: unknown): Field | null {
  const text = failure && typeof failure === 'object' && 'text' in failure && typeof failure.text === 'string' ? failure.text : '';
  try {
    const field = (JSON.parse(text) as { field?: unknown }).field;
    return typeof field === 'string' && FIELDS.includes(field) ? (field as Field) : null;
  } catch {
    return null;
  }
}

/** The stored provider in words, or that there is none. */
function Current({ provider }: { provider: MobileProvider | null }) {
  if (!provider) return <p className="portal-muted">No device provider is set: this client’s mobile UI tests end in an error saying so.</p>;
  const farm = provider.kind === 'devicefarm';
  const parts = [
    provider.username ? `${farm ? 'access key ID' : 'user'} ${provider.username}` : null,
    provider.accessKeyHint ? `${farm ? 'secret access key' : 'access key'} ${provider.accessKeyHint}` : 'no access key',
    provider.projectArn ? `project ${provider.projectArn}` : null,
    provider.testGridProjectArn ? `desktop browser project ${provider.testGridProjectArn}` : null,
    provider.cloudMinutesPerRun !== null ? `at most ${provider.cloudMinutesPerRun} cloud minutes a run` : null,
  ].filter(Boolean);
  return (
    <p className="portal-muted">
      {KIND_NAMES[provider.kind]} at <span className="portal-mono ops-wrap">{provider.url}</span>
      {provider.region ? ` (${provider.region})` : ''} ({parts.join(', ')}).
    </p>
  );
}

/** The form, filled from the stored provider (remounted when it changes). */
function ProviderForm({ clientId, provider, setNotice }: { clientId: string; provider: MobileProvider | null; setNotice: (notice: NoticeText | null) => void }) {
  const [save, saving] = api.useSetOpsMobileProviderMutation();
  const [remove, removing] = api.useRemoveOpsMobileProviderMutation();
  const [test, testing] = api.useTestOpsMobileProviderMutation();
  const [kind, setKind] = useState<MobileProviderKind>(provider?.kind ?? 'appium');
  const [region, setRegion] = useState<SauceRegion>(provider?.region ?? 'us-west-1');
  const cloud = isMobileCloudKind(kind) ? mobileCloudEndpoints(kind, region) : null;
  // A cloud's hub and API default to the provider's own: an override shows only when one is stored.
  const storedDefault = (value: string | null | undefined, fallback: string | undefined) => (value && value !== fallback ? value : '');
  const [url, setUrl] = useState(provider && isMobileCloudKind(provider.kind) ? storedDefault(provider.url, mobileCloudEndpoints(provider.kind, provider.region ?? undefined).url) : (provider?.url ?? ''));
  const [apiUrl, setApiUrl] = useState(provider && isMobileCloudKind(provider.kind) ? storedDefault(provider.apiUrl, mobileCloudEndpoints(provider.kind, provider.region ?? undefined).apiUrl) : '');
  const [username, setUsername] = useState(provider?.username ?? '');
  const [projectArn, setProjectArn] = useState(provider?.projectArn ?? '');
  const [testGridProjectArn, setTestGridProjectArn] = useState(provider?.testGridProjectArn ?? '');
  const [cloudMinutes, setCloudMinutes] = useState(provider?.cloudMinutesPerRun != null ? String(provider.cloudMinutesPerRun) : '');
  const farm = kind === 'devicefarm';
  const [accessKey, setAccessKey] = useState('');
  const [capabilities, setCapabilities] = useState(provider?.capabilities ? JSON.stringify(provider.capabilities, null, 2) : '');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const busy = saving.isLoading || removing.isLoading || testing.isLoading;
  // The stored key is kept only for the same provider (another one is another address: its key is asked again).
  const keptKey = provider?.accessKeyHint && provider.kind === kind ? provider.accessKeyHint : null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(null);
    const found: Partial<Record<Field, string>> = {};
    if (!cloud && !url.trim()) found.url = 'Enter the Appium server’s URL, e.g. http://10.0.0.5:4723/.';
    if (cloud && !username.trim()) found.username = farm ? 'Enter the AWS access key ID.' : `Enter the ${KIND_NAMES[kind]} user name.`;
    if (cloud && !accessKey && !keptKey) found.accessKey = farm ? 'Enter the AWS secret access key.' : `Enter the ${KIND_NAMES[kind]} access key.`;
    if (farm && !projectArn.trim()) found.projectArn = 'Enter the Device Farm project’s ARN.';
    else if (farm && !DEVICE_FARM_PROJECT_ARN.test(projectArn.trim())) found.projectArn = 'The project ARN looks like arn:aws:devicefarm:us-west-2:123456789012:project:<id>.';
    if (farm && testGridProjectArn.trim() && !DEVICE_FARM_TESTGRID_PROJECT_ARN.test(testGridProjectArn.trim())) {
      found.testGridProjectArn = 'The desktop browser project ARN looks like arn:aws:devicefarm:us-west-2:123456789012:testgrid-project:<id>.';
    }
    const minutes = cloudMinutes.trim() === '' ? null : Number(cloudMinutes.trim());
    if (cloud && minutes !== null && (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_CLOUD_MINUTES_PER_RUN)) {
      found.cloudMinutesPerRun = `Enter a whole number of minutes from 0 to ${MAX_CLOUD_MINUTES_PER_RUN}, or leave it empty for no cap.`;
    }
    let caps: Record<string, unknown> | null = null;
    if (capabilities.trim()) {
      try {
        const parsed: unknown = JSON.parse(capabilities);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        caps = parsed as Record<string, unknown>;
        if (JSON.stringify(caps).length > MOBILE_CAPABILITIES_MAX_CHARS) found.capabilities = `Capabilities must be at most ${MOBILE_CAPABILITIES_MAX_CHARS} characters of JSON.`;
      } catch {
        found.capabilities = 'Capabilities must be a JSON object, e.g. { "automationName": "UiAutomator2" }.';
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: SetMobileProviderBody = {
      kind,
      url: farm ? null : url.trim() || null,
      ...(farm ? { projectArn: projectArn.trim(), testGridProjectArn: testGridProjectArn.trim() || null } : {}),
      ...(cloud ? { cloudMinutesPerRun: minutes } : {}),
      ...(cloud ? { apiUrl: apiUrl.trim() || null } : {}),
      ...(kind === 'saucelabs' ? { region } : {}),
      username: username.trim() || null,
      capabilities: caps,
      ...(accessKey ? { accessKey } : {}),
    };
    try {
      await save({ clientId, body }).unwrap();
      setNotice({ tone: 'success', text: 'Device provider saved.' });
    } catch (failure) {
      const field = fieldOf(failure);
      const text = failureMessage(failure);
      // Device Farm has no Appium URL field: an error on it goes to the notice.
      if (field && !(farm && field === 'url')) setErrors({ [field]: text.charAt(0).toUpperCase() + text.slice(1) });
      else setNotice({ tone: 'error', text });
    }
  }

  async function onTest() {
    setNotice(null);
    try {
      const answer = await test(clientId).unwrap();
      setNotice({ tone: answer.ok ? 'success' : 'error', text: answer.message });
    } catch (failure) {
      setNotice({ tone: 'error', text: failureMessage(failure) });
    }
  }

  async function onRemove() {
    setNotice(null);
    try {
      await remove(clientId).unwrap();
      setNotice({ tone: 'success', text: 'Device provider removed.' });
    } catch (failure) {
      setNotice({ tone: 'error', text: failureMessage(failure) });
    }
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Set the device provider" style={{ display: 'grid', gap: 12, marginTop: 16 }}>
      <SelectField
        id="ops-mobile-kind"
        label="Provider"
        options={KIND_OPTIONS}
        value={kind}
        onChange={(e) => {
          // Another provider: its own hub and API, not the last one's address.
          setKind(e.target.value as MobileProviderKind);
          setUrl('');
          setApiUrl('');
        }}
        hint={COST_HINTS[kind]}
      />
      {kind === 'saucelabs' && (
        <SelectField id="ops-mobile-region" label="Data center" options={REGION_OPTIONS} value={region} onChange={(e) => setRegion(e.target.value as SauceRegion)} hint="Shown at the top right of the Sauce Labs app." />
      )}
      {farm && cloud ? (
        <>
          <TextField
            id="ops-mobile-project"
            label="Project ARN"
            placeholder="arn:aws:devicefarm:us-west-2:123456789012:project:…"
            autoComplete="off"
            className="portal-mono"
            value={projectArn}
            error={errors.projectArn}
            onChange={(e) => setProjectArn(e.target.value)}
          />
          <TextField
            id="ops-mobile-testgrid"
            label="Desktop browser project ARN (optional)"
            placeholder="arn:aws:devicefarm:us-west-2:123456789012:testgrid-project:…"
            autoComplete="off"
            className="portal-mono"
            value={testGridProjectArn}
            error={errors.testGridProjectArn}
            onChange={(e) => setTestGridProjectArn(e.target.value)}
          />
          <p className="portal-muted">Where browser tests’ cloud cells run (Chrome, Firefox and Edge on Windows). Without it, this client’s browser tests cannot have cloud devices on Device Farm.</p>
          <TextField id="ops-mobile-api" label="API URL (optional)" type="url" placeholder={cloud.apiUrl} value={apiUrl} error={errors.apiUrl} onChange={(e) => setApiUrl(e.target.value)} />
        </>
      ) : cloud ? (
        <div className="portal-grid-2">
          <TextField id="ops-mobile-url" label="Hub URL (optional)" type="url" placeholder={cloud.url} value={url} error={errors.url} onChange={(e) => setUrl(e.target.value)} />
          <TextField id="ops-mobile-api" label="REST API URL (optional)" type="url" placeholder={cloud.apiUrl} value={apiUrl} error={errors.apiUrl} onChange={(e) => setApiUrl(e.target.value)} />
        </div>
      ) : (
        <TextField id="ops-mobile-url" label="Appium URL" type="url" placeholder="http://10.0.0.5:4723/" value={url} error={errors.url} onChange={(e) => setUrl(e.target.value)} />
      )}
      <p className="portal-muted">{KEY_HINTS[kind]}</p>
      <div className="portal-grid-2">
        <TextField id="ops-mobile-user" label={farm ? 'Access key ID' : cloud ? 'User name' : 'User name (optional)'} autoComplete="off" value={username} error={errors.username} onChange={(e) => setUsername(e.target.value)} />
        <TextField
          id="ops-mobile-key"
          label={farm ? 'Secret access key (write-only)' : 'Access key (write-only)'}
          type="password"
          autoComplete="new-password"
          placeholder={keptKey ? `Leave empty to keep ${keptKey}` : cloud ? 'Required' : 'None'}
          value={accessKey}
          error={errors.accessKey}
          onChange={(e) => setAccessKey(e.target.value)}
        />
      </div>
      {cloud && (
        <>
          <TextField
            id="ops-mobile-cloud-minutes"
            label="Cloud minutes per run (optional)"
            inputMode="numeric"
            placeholder="No cap"
            value={cloudMinutes}
            error={errors.cloudMinutesPerRun}
            onChange={(e) => setCloudMinutes(e.target.value)}
          />
          <p className="portal-muted">The most device minutes a run’s browser cloud cells may use together: past it, no further cloud cell starts and the report says so. 0 starts none.</p>
        </>
      )}
      <TextAreaField
        id="ops-mobile-caps"
        label="Extra capabilities (JSON, optional)"
        rows={4}
        className="portal-mono"
        placeholder='{ "appium:automationName": "UiAutomator2" }'
        value={capabilities}
        error={errors.capabilities}
        onChange={(e) => setCapabilities(e.target.value)}
      />
      <div className="portal-actions">
        <button type="submit" className="btn btn--primary portal-btn-sm" disabled={busy}>
          {saving.isLoading ? 'Saving…' : 'Save'}
        </button>
        {provider && (
          <>
            <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} onClick={() => void onTest()}>
              {testing.isLoading ? 'Testing…' : 'Test'}
            </button>
            <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} onClick={() => void onRemove()}>
              Remove
            </button>
          </>
        )}
      </div>
    </form>
  );
}

/**
 * "Mobile devices": where the client's mobile UI tests find their devices (issue 28). An Appium endpoint, BrowserStack,
 * Sauce Labs or AWS Device Farm (its project ARN); the user name and access key (write-only, kept only while the hub and API stay on the same origins),
 * and extra capabilities.
 */
export function ClientMobileDevices({ clientId }: { clientId: string }) {
  const { data, isLoading, error } = api.useGetOpsMobileProviderQuery(clientId);
  // Kept here: the form is remounted with the saved provider, its outcome stays.
  const [notice, setNotice] = useState<NoticeText | null>(null);
  return (
    <Card id="ops-mobile-devices-title" title="Mobile devices">
      {isLoading ? (
        <p className="portal-muted">Loading…</p>
      ) : error || !data ? (
        <Notice tone="error">{failureMessage(error, 'The device provider could not be loaded.')}</Notice>
      ) : (
        <>
          <Current provider={data.provider} />
          <ProviderForm key={data.provider?.updatedAt ?? 'none'} clientId={clientId} provider={data.provider} setNotice={setNotice} />
          {notice && (
            <Notice tone={notice.tone} style={{ marginTop: 12 }}>
              {notice.text}
            </Notice>
          )}
        </>
      )}
    </Card>
  );
}
