import type { PaymentPreset } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';
import { AsyncFailed } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { Notice } from '../../components/notice.tsx';
import './client-payment-presets.css';
import { countText } from './health-texts.ts';
import { useGetOpsPaymentPresetsQuery, useSwitchOffPaymentPresetMutation, useSwitchOnPaymentPresetMutation } from './payment-presets-api.ts';
import { useCardNotice } from './use-card-notice.ts';

/** "docs.stripe.com": where a provider's test-card page is, for its link's words. */
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** One provider: its switch, what it opens, who switched it on and when, and its page of test cards. */
function Preset({ preset, busy, onSwitch }: { preset: PaymentPreset; busy: boolean; onSwitch: (preset: PaymentPreset) => void }) {
  const nameId = `ops-preset-${preset.provider}`;
  const origins = countText(preset.origins.length, 'origin');
  return (
    <li className={`ops-preset${preset.enabled ? ' ops-preset--on' : ''}`}>
      <div className="ops-preset__head">
        <span id={nameId} className="ops-preset__name">
          {preset.label}
        </span>
        <button type="button" role="switch" aria-checked={preset.enabled} aria-labelledby={nameId} className="ops-switch" disabled={busy} onClick={() => onSwitch(preset)}>
          <span className="ops-switch__track" aria-hidden="true">
            <span className="ops-switch__thumb" />
          </span>
          <span className="ops-switch__text">{preset.enabled ? 'On' : 'Off'}</span>
        </button>
      </div>
      {preset.enabled ? (
        <>
          <p className="ops-muted">
            On since {formatDate(preset.enabledAt)}
            {preset.enabledBy ? `, switched on by ${preset.enabledBy}` : ''}. This client’s tests may reach these {origins}:
          </p>
          <ul className="ops-preset__origins" aria-label={`Origins ${preset.label} opens`}>
            {preset.origins.map((origin) => (
              <li key={origin} className="portal-mono">
                {origin}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="ops-muted">Switching it on opens {origins} to this client’s tests.</p>
      )}
      <a className="ops-preset__docs" href={preset.docsUrl} target="_blank" rel="noopener noreferrer">
        Test cards on {hostOf(preset.docsUrl)}
      </a>
    </li>
  );
}

/**
 * The payment providers' presets (issue 43): switching one on lets this client's tests reach that provider's
 * test-mode origins, and nothing else; each switch is in the audit log.
 */
export function ClientPaymentPresets({ clientId }: { clientId: string }) {
  const presets = useGetOpsPaymentPresetsQuery(clientId);
  const [switchOn, on] = useSwitchOnPaymentPresetMutation();
  const [switchOff, off] = useSwitchOffPaymentPresetMutation();
  const { notice, act } = useCardNotice();
  const busy = on.isLoading || off.isLoading;

  function onSwitch(preset: PaymentPreset) {
    const args = { clientId, provider: preset.provider };
    if (preset.enabled) void act(() => switchOff(args).unwrap(), `${preset.label} is off: its origins are closed to this client’s tests.`);
    else void act(() => switchOn(args).unwrap(), `${preset.label} is on: its ${countText(preset.origins.length, 'origin')} are open to this client’s tests.`);
  }

  return (
    <Card id="ops-payments-title" title="Payment providers">
      <p className="portal-muted">Switch a provider on when this client’s checkout uses its test mode: its origins open to this client’s tests only.</p>
      {presets.isError ? (
        <AsyncFailed>The payment providers could not be loaded.</AsyncFailed>
      ) : !presets.data ? (
        <p className="portal-muted">Loading…</p>
      ) : (
        <ul className="ops-presets">
          {presets.data.presets.map((preset) => (
            <Preset key={preset.provider} preset={preset} busy={busy} onSwitch={onSwitch} />
          ))}
        </ul>
      )}
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
    </Card>
  );
}
