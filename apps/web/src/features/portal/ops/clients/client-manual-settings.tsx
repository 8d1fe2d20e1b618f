import { DEFAULT_MANUAL_SETTINGS, manualSettings, opsApiPaths, type ManualSettings } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { AsyncFailed } from '../../components/async-state.tsx';
import { Card } from '../../components/card.tsx';
import { portalApi } from '../../store/portal-api.ts';
import { ClientCardForm } from './client-card-form.tsx';
import './client-manual-settings.css';
import { useCardNotice } from './use-card-notice.ts';

const settingsPath = (clientId: string) => `${opsApiPaths.client(clientId)}/manual-settings`;

const api = portalApi.enhanceEndpoints({ addTagTypes: ['OpsManualSettings', 'OpsAudit'] }).injectEndpoints({
  endpoints: (build) => ({
    getOpsManualSettings: build.query<ManualSettings, string>({
      query: (clientId) => ({ url: settingsPath(clientId), schema: manualSettings }),
      providesTags: (_r, _e, clientId) => [{ type: 'OpsManualSettings', id: clientId }],
    }),
    setOpsManualSettings: build.mutation<ManualSettings, { clientId: string } & ManualSettings>({
      query: ({ clientId, ...json }) => ({ url: settingsPath(clientId), method: 'PUT', json, schema: manualSettings }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsManualSettings', id: clientId }, 'OpsAudit'],
    }),
  }),
});

/** The rule in words: "Manual cases are due 48 hours after a run, counting working days only." */
export function manualDueWords(settings: ManualSettings): string {
  const hours = settings.dueHours === 1 ? '1 hour' : `${settings.dueHours} hours`;
  return `Manual cases are due ${hours} after a run${settings.workingDaysOnly ? ', counting working days only' : ''}.`;
}

/** The form, started from the saved settings (mounted once they are read; a save leaves it as the tester typed it). */
function SettingsForm({ clientId, saved }: { clientId: string; saved: ManualSettings }) {
  const [save, { isLoading }] = api.useSetOpsManualSettingsMutation();
  const [hours, setHours] = useState(String(saved.dueHours));
  const [workingDaysOnly, setWorkingDaysOnly] = useState(saved.workingDaysOnly);
  const [invalid, setInvalid] = useState(false);
  const { notice, setNotice, act } = useCardNotice();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = manualSettings.safeParse({ dueHours: /^\s*\d+\s*$/.test(hours) ? Number(hours) : Number.NaN, workingDaysOnly });
    setInvalid(!parsed.success);
    if (!parsed.success) {
      setNotice({ tone: 'error', text: 'Enter a whole number of hours from 1 to 336 (two weeks).' });
      return;
    }
    void act(() => save({ clientId, ...parsed.data }).unwrap(), (result) => `Saved. ${manualDueWords(result)}`);
  };

  return (
    <ClientCardForm label="When manual cases are due" className="ops-manual-settings" onSubmit={onSubmit} busy={isLoading} submitText="Save" notice={notice}>
      <p className="ops-manual-settings__rule">
        <span id="ops-manual-due-before">Manual cases are due</span>{' '}
        <input
          id="ops-manual-due-hours"
          className="ops-manual-settings__hours"
          inputMode="numeric"
          size={4}
          maxLength={3}
          value={hours}
          aria-invalid={invalid}
          aria-labelledby="ops-manual-due-before ops-manual-due-after"
          onChange={(event) => setHours(event.target.value)}
        />{' '}
        <span id="ops-manual-due-after">hours after a run</span>
      </p>
      <label className="ops-manual-settings__days">
        <input type="checkbox" checked={workingDaysOnly} onChange={(event) => setWorkingDaysOnly(event.target.checked)} />
        <span>Counting working days only (Monday to Friday, UTC)</span>
      </label>
    </ClientCardForm>
  );
}

/** When this client's manual cases are due after a run (issue 41): hours, and whether weekends count. */
export function ClientManualSettings({ clientId }: { clientId: string }) {
  const settings = api.useGetOpsManualSettingsQuery(clientId);
  return (
    <Card id="ops-manual-settings-title" title="Manual testing">
      <p className="portal-muted">
        A run’s manual cases wait for a tester until they are due; one not done by then counts as not run. The default is{' '}
        {DEFAULT_MANUAL_SETTINGS.dueHours} hours, working days only.
      </p>
      {settings.isError ? (
        <AsyncFailed>The manual testing settings could not be loaded.</AsyncFailed>
      ) : !settings.data ? (
        <p className="portal-muted">Loading…</p>
      ) : (
        <SettingsForm clientId={clientId} saved={settings.data} />
      )}
    </Card>
  );
}
