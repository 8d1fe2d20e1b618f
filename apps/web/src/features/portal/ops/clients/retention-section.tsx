import {
  RETENTION_MAX_DAYS,
  RETENTION_MIN_DAYS,
  retentionApiPaths,
  retentionResponse,
  type RetentionResponse,
  type SetRetentionRequest,
} from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { Card } from '../../components/card.tsx';
import { TextField } from '../../components/text-field.tsx';
import { portalApi } from '../../store/portal-api.ts';
import { ClientCardForm } from './client-card-form.tsx';
import { useCardNotice } from './use-card-notice.ts';

const api = portalApi.enhanceEndpoints({ addTagTypes: ['OpsRetention'] }).injectEndpoints({
  endpoints: (build) => ({
    getOpsRetention: build.query<RetentionResponse, string>({
      query: (clientId) => ({ url: retentionApiPaths.operator(clientId), schema: retentionResponse }),
      providesTags: (_r, _e, clientId) => [{ type: 'OpsRetention', id: clientId }],
    }),
    setOpsRetention: build.mutation<RetentionResponse, { clientId: string } & SetRetentionRequest>({
      query: ({ clientId, days }) => ({ url: retentionApiPaths.operator(clientId), method: 'PUT', json: { days }, schema: retentionResponse }),
      invalidatesTags: (_r, _e, { clientId }) => [{ type: 'OpsRetention', id: clientId }],
    }),
  }),
});

/** How long the client's runs and builds are kept: the agreed number of days, or the default. */
export function RetentionSection({ clientId }: { clientId: string }) {
  const { data, isLoading: loading } = api.useGetOpsRetentionQuery(clientId);
  const [save, { isLoading }] = api.useSetOpsRetentionMutation();
  const [days, setDays] = useState('');
  const { notice, setNotice, act } = useCardNotice();

  async function apply(value: number | null) {
    const saved = (result: { days: number; isDefault: boolean }) => (result.isDefault ? `Back to the default: ${result.days} days.` : `Retention set to ${result.days} days.`);
    if (await act(() => save({ clientId, days: value }).unwrap(), saved)) setDays('');
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = Number(days);
    if (!/^\d+$/.test(days.trim()) || value < RETENTION_MIN_DAYS || value > RETENTION_MAX_DAYS) {
      setNotice({ tone: 'error', text: `Enter a whole number of days from ${RETENTION_MIN_DAYS} to ${RETENTION_MAX_DAYS}.` });
      return;
    }
    void apply(value);
  };

  return (
    <Card id="ops-retention-title" title="Retention">
      <p className="portal-muted">
        {loading || !data
          ? 'Loading…'
          : data.isDefault
            ? `Runs and builds are deleted after ${data.days} days (the default).`
            : `Runs and builds are deleted after ${data.days} days, as agreed with this client (default ${data.defaultDays}).`}{' '}
        Each test’s latest run and the build in use are kept.
      </p>
      <ClientCardForm
        label="Set the retention"
        onSubmit={onSubmit}
        busy={isLoading}
        submitText="Save"
        extra={
          data &&
          !data.isDefault && (
            <button type="button" className="btn btn--ghost portal-btn-sm" disabled={isLoading} onClick={() => void apply(null)}>
              Use the default
            </button>
          )
        }
        notice={notice}
      >
        <TextField id="ops-retention-days" label="Days" inputMode="numeric" placeholder={String(data?.days ?? '')} value={days} onChange={(e) => setDays(e.target.value)} />
      </ClientCardForm>
    </Card>
  );
}
