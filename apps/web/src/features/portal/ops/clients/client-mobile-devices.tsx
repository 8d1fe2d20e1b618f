import {
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

type Field = 'url' | 'apiUrl' | 'username' | 'accessKey' | 'capabilities';
/** The fields a 400 can name that show their error under them (a region's goes to the notice). */
const FIELDS: readonly string[] = ['url', 'apiUrl', 'username', 'accessKey', 'capabilities'];
const KIND_OPTIONS = [
  { value: 'appium', label: 'Appium server (a device lab, an emulator host)' },
  { value: 'browserstack', label: 'BrowserStack App Automate' },
  { value: 'saucelabs', label: 'Sauce Labs' },
] as const;
const KIND_NAMES: Record<MobileProviderKind, string> = { appium: 'Appium', browserstack: 'BrowserStack', saucelabs: 'Sauce Labs' };
const REGION_OPTIONS = SAUCE_REGIONS.map((r) => ({ value: r, label: r }));
/** Where an operator finds a cloud's user name and access key. */
const KEY_HINTS: Record<MobileProviderKind, string> = {
  appium: 'Only if the server asks for them (HTTP basic auth).',
  browserstack: 'In BrowserStack: App Automate dashboard › Access Key (the user name and key shown there). Each build is uploaded to its app storage once.',
  saucelabs: 'In Sauce Labs: User settings › Access Key, and the user name beside it. Choose the data center the account is in.',
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
  const parts = [provider.username ? `user ${provider.username}` : null, provider.accessKeyHint ? `access key ${provider.accessKeyHint}` : 'no access key'].filter(Boolean);
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
    if (cloud && !username.trim()) found.username = `Enter the ${KIND_NAMES[kind]} user name.`;
    if (cloud && !accessKey && !keptKey) found.accessKey = `Enter the ${KIND_NAMES[kind]} access key.`;
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
      url: url.trim() || null,
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
      if (field) setErrors({ [field]: text.charAt(0).toUpperCase() + text.slice(1) });
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
        hint={cloud ? 'Runs on the provider’s real devices, billed to its account in device minutes. AWS Device Farm is not offered yet.' : 'AWS Device Farm is not offered yet.'}
      />
      {kind === 'saucelabs' && (
        <SelectField id="ops-mobile-region" label="Data center" options={REGION_OPTIONS} value={region} onChange={(e) => setRegion(e.target.value as SauceRegion)} hint="Shown at the top right of the Sauce Labs app." />
      )}
      {cloud ? (
        <div className="portal-grid-2">
          <TextField id="ops-mobile-url" label="Hub URL (optional)" type="url" placeholder={cloud.url} value={url} error={errors.url} onChange={(e) => setUrl(e.target.value)} />
          <TextField id="ops-mobile-api" label="REST API URL (optional)" type="url" placeholder={cloud.apiUrl} value={apiUrl} error={errors.apiUrl} onChange={(e) => setApiUrl(e.target.value)} />
        </div>
      ) : (
        <TextField id="ops-mobile-url" label="Appium URL" type="url" placeholder="http://10.0.0.5:4723/" value={url} error={errors.url} onChange={(e) => setUrl(e.target.value)} />
      )}
      <p className="portal-muted">{KEY_HINTS[kind]}</p>
      <div className="portal-grid-2">
        <TextField id="ops-mobile-user" label={cloud ? 'User name' : 'User name (optional)'} autoComplete="off" value={username} error={errors.username} onChange={(e) => setUsername(e.target.value)} />
        <TextField
          id="ops-mobile-key"
          label="Access key (write-only)"
          type="password"
          autoComplete="new-password"
          placeholder={keptKey ? `Leave empty to keep ${keptKey}` : cloud ? 'Required' : 'None'}
          value={accessKey}
          error={errors.accessKey}
          onChange={(e) => setAccessKey(e.target.value)}
        />
      </div>
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
 * "Mobile devices": where the client's mobile UI tests find their devices (issue 28). An Appium endpoint, BrowserStack
 * or Sauce Labs; the user name and access key (write-only, kept only while the hub and API stay on the same origins),
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
