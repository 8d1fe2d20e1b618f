import { manualPlatform, type ManualPlatformValue, type ManualWorkDetailResponse } from '@fullstop/contracts';
import { useState, type FormEvent } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { BusyButton } from '../../components/busy-button.tsx';
import { CardForm } from '../../components/card.tsx';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { Notice } from '../../components/notice.tsx';
import { TextField } from '../../components/text-field.tsx';
import { fieldErrors, type FieldErrors } from '../clients/field-errors.ts';
import { useReleaseManualWorkMutation, useSubmitManualWorkMutation } from './manual-api.ts';
import { caseVerdict, firstStepWithoutVerdict, VERDICT_WORDS } from './manual-texts.ts';

type Field = keyof ManualPlatformValue;
type Used = Record<Field, string>;

const FIELDS: { name: Field; label: string; autoComplete: string }[] = [
  { name: 'device', label: 'Device', autoComplete: 'off' },
  { name: 'browser', label: 'Browser (optional)', autoComplete: 'off' },
  { name: 'os', label: 'Operating system (optional)', autoComplete: 'off' },
];

/** The form starts from what the tester said last time, else from the platform the case asks for. */
const startFrom = (work: ManualWorkDetailResponse): Used => {
  const from = work.used ?? work.asked;
  return { device: from.device, browser: from.browser ?? '', os: from.os ?? '' };
};

/** The platform as the server takes it: the optional fields left out when empty. */
const asPlatform = (used: Used) => ({ device: used.device, browser: used.browser.trim() || undefined, os: used.os.trim() || undefined });

/**
 * The end of the tester's page: what was really used (device, browser, OS), Submit, which makes the case's verdict
 * the test's result, and Release, which gives the case back to the queue. Both ask first; `onDone` gets the
 * server's words.
 */
export function ManualFinish({ work, onDone }: { work: ManualWorkDetailResponse; onDone: (message: string) => void }) {
  const [used, setUsed] = useState<Used>(() => startFrom(work));
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [submit, submitting] = useSubmitManualWorkMutation();
  const [release, releasing] = useReleaseManualWorkMutation();
  const confirm = useConfirm();
  const busy = submitting.isLoading || releasing.isLoading;

  async function act(call: () => Promise<{ message: string }>) {
    setProblem(null);
    try {
      onDone((await call()).message);
    } catch (failure) {
      setProblem(failureMessage(failure));
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    const parsed = manualPlatform.safeParse(asPlatform(used));
    setErrors(parsed.success ? {} : fieldErrors<Field>(parsed.error.issues));
    if (!parsed.success) return;
    const missing = firstStepWithoutVerdict(work.steps);
    if (missing !== null) {
      setProblem(`Step ${missing} has no verdict yet: pass it, fail it or mark it blocked before you submit.`);
      return;
    }
    confirm.ask({
      title: 'Submit this case?',
      message: `It will count as ${VERDICT_WORDS[caseVerdict(work.steps)]} in ${work.clientName}’s run. You cannot change it afterwards.`,
      confirmText: 'Submit',
      onConfirm: () => void act(() => submit({ id: work.id, used: parsed.data }).unwrap()),
    });
  }

  function onRelease() {
    confirm.ask({
      title: 'Give it back to the queue?',
      message: 'The case goes back to the Manual work queue, where any tester can claim it.',
      confirmText: 'Give it back',
      onConfirm: () => void act(() => release(work.id).unwrap()),
    });
  }

  return (
    <CardForm id="manual-finish-title" title="What you used" className="portal-form manual-finish" onSubmit={onSubmit}>
      <p className="portal-muted">The device, browser and operating system you really ran the steps on. The client reads them in the report.</p>
      <div className="manual-finish__fields">
        {FIELDS.map(({ name, label, autoComplete }) => (
          <TextField
            key={name}
            id={`manual-used-${name}`}
            label={label}
            autoComplete={autoComplete}
            maxLength={80}
            value={used[name]}
            onChange={(event) => setUsed({ ...used, [name]: event.target.value })}
            error={errors[name]}
          />
        ))}
      </div>
      {problem && <Notice tone="error">{problem}</Notice>}
      <div className="portal-actions manual-finish__actions">
        <BusyButton busy={submitting.isLoading} busyText="Submitting…" disabled={busy}>
          Submit
        </BusyButton>
        <BusyButton type="button" className="btn btn--ghost" busy={releasing.isLoading} busyText="Giving it back…" disabled={busy} onClick={onRelease}>
          Give it back to the queue
        </BusyButton>
      </div>
      {confirm.dialog}
    </CardForm>
  );
}
