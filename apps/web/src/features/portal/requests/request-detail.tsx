import { AsyncLoading } from '../components/async-state.tsx';
import { FormError } from '../components/form-error.tsx';
import { RequestThread } from '../components/requests/request-thread.tsx';
import { useViewerReason } from '../store/viewer.ts';
import { useGetRequestQuery, useReplyToRequestMutation } from './requests-api.ts';

/** One of the client's requests with its thread, within the Requests page (`?id=`). */
export function RequestDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const request = useGetRequestQuery(id);
  const [reply] = useReplyToRequestMutation();
  const viewerReason = useViewerReason('reply to requests');
  const back = (
    <p>
      <button type="button" className="btn btn--ghost" onClick={onBack}>
        ← All requests
      </button>
    </p>
  );
  return (
    <section className="portal-card" aria-label="Request">
      {request.isLoading ? (
        <AsyncLoading>Loading the request…</AsyncLoading>
      ) : request.isError || !request.data ? (
        <>
          {back}
          <FormError message={request.error && 'status' in request.error && request.error.status === 404 ? 'This request was not found.' : 'The request could not be loaded. Please try again later.'} />
        </>
      ) : (
        <RequestThread
          detail={request.data}
          viewer="client"
          header={back}
          onReply={(body) => reply({ id, body }).unwrap()}
          onFilesChanged={() => void request.refetch()}
          readOnlyReason={viewerReason}
        />
      )}
    </section>
  );
}
