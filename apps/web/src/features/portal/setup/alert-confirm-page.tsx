import { failureMessage } from '@/lib/failure-message.ts';
import { useLinkToken } from '@/lib/use-link-token.ts';
import { SubmitRow } from '../components/busy-button.tsx';
import { FormError } from '../components/form-error.tsx';
import { FullLogo } from '../components/full-logo.tsx';
import { Notice } from '../components/notice.tsx';
import { useConfirmAlertChannelMutation } from './alerts-api.ts';

const NO_TOKEN = 'This confirmation link is not complete. Please open the whole link from the e-mail.';

/**
 * /confirm-alerts?token=…: the link mailed to a new e-mail alert channel's address. Nothing is confirmed until
 * the button is pressed, so a mail scanner that opens links confirms nothing. The token is taken into the page and
 * dropped from the address, like the invitation's.
 */
export function AlertConfirmPage() {
  const token = useLinkToken();
  const [confirm, confirming] = useConfirmAlertChannelMutation();

  return (
    <div className="portal-auth">
      <section className="portal-auth__card" aria-labelledby="alert-confirm-title">
        <FullLogo />
        <h1 id="alert-confirm-title" className="portal-auth__title">
          Confirm alerts to this address
        </h1>
        {!token ? (
          <FormError message={NO_TOKEN} />
        ) : confirming.data ? (
          <Notice tone="success">{confirming.data.message}</Notice>
        ) : (
          <form
            className="portal-form"
            onSubmit={(event) => {
              event.preventDefault();
              void confirm(token);
            }}
          >
            <p className="portal-muted">A team on Fullstop QA asked to send its test alerts to your e-mail address. Nothing is sent to it until you confirm.</p>
            <FormError message={confirming.error ? failureMessage(confirming.error, 'The address could not be confirmed. Please try again later.') : null} />
            <SubmitRow busy={confirming.isLoading} busyText="Confirming…">
              Confirm this address
            </SubmitRow>
          </form>
        )}
      </section>
    </div>
  );
}
