import { manualStepVerdict, type ManualStepVerdictValue, type ManualWorkStep } from '@fullstop/contracts';
import { useRef, useState } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { useSaveManualStepMutation } from './manual-api.ts';
import { StepEvidence } from './manual-evidence.tsx';
import { VERDICT_LABELS, VERDICT_WORDS } from './manual-texts.ts';

interface StepCardProps {
  workId: string;
  /** Counted from 1, as the tester reads it and the routes count it. */
  number: number;
  step: ManualWorkStep;
  /** After the first failed or blocked step: the tester stopped before it, though it stays editable. */
  notReached: boolean;
  /** The caller holds the work: verdicts, notes and evidence can change. */
  editable: boolean;
}

type SaveState = { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; text: string } | null;

const NOTE_MAX = 2000;

/** A step's verdict and note, kept as the server last took them. */
interface Kept {
  verdict: ManualStepVerdictValue | null;
  note: string;
}

/**
 * One step of the case as a card: its action, what must be seen, the WCAG criteria it checks, then (for the tester
 * holding the work) Pass, Fail or Blocked, a note saved when it loses focus, and the step's evidence.
 */
export function ManualStepCard({ workId, number, step, notReached, editable }: StepCardProps) {
  const [save] = useSaveManualStepMutation();
  const [verdict, setVerdict] = useState(step.verdict);
  const [note, setNote] = useState(step.note ?? '');
  const [state, setState] = useState<SaveState>(null);
  const kept = useRef<Kept>({ verdict: step.verdict, note: step.note ?? '' });
  // One save at a time, in the order they were asked: a note saved on blur never lands after the verdict tapped next.
  const queue = useRef(Promise.resolve());
  const titleId = `manual-step-${number}`;
  const noteId = `manual-step-${number}-note`;

  function persist(next: Kept) {
    queue.current = queue.current.then(async () => {
      setState({ kind: 'saving' });
      try {
        await save({ id: workId, step: number, verdict: next.verdict, note: next.note.trim() ? next.note : null }).unwrap();
        kept.current = next;
        setState({ kind: 'saved' });
      } catch (failure) {
        setState({ kind: 'failed', text: `Not saved: ${failureMessage(failure, 'the server could not be reached.')}` });
      }
    });
  }

  function choose(value: ManualStepVerdictValue) {
    // Pressing the chosen verdict again takes it back.
    const next = verdict === value ? null : value;
    setVerdict(next);
    persist({ verdict: next, note });
  }

  const classes = ['portal-card', 'manual-step', notReached && 'manual-step--not-reached', verdict && `manual-step--${verdict}`].filter(Boolean).join(' ');
  return (
    <li className={classes} aria-labelledby={titleId}>
      <h3 id={titleId} className="manual-step__title">
        Step {number}
        {notReached && <span className="manual-step__tag">Not reached</span>}
      </h3>
      <p className="manual-step__action">{step.action}</p>
      <p className="manual-step__expected">
        <span className="manual-step__label">Expected: </span>
        {step.expected}
      </p>
      {step.wcag.length > 0 && (
        <p className="manual-step__wcag">
          <span className="manual-step__label">WCAG 2.2 success criteria: </span>
          {step.wcag.join(', ')}
        </p>
      )}
      {editable ? (
        <>
          <div className="manual-verdicts" role="group" aria-label={`Verdict on step ${number}`}>
            {manualStepVerdict.options.map((value) => (
              <button
                key={value}
                type="button"
                className={`manual-verdict manual-verdict--${value}`}
                aria-pressed={verdict === value}
                onClick={() => choose(value)}
              >
                {VERDICT_LABELS[value]}
              </button>
            ))}
          </div>
          <div className="portal-field">
            <label htmlFor={noteId}>Note on step {number}</label>
            <textarea
              id={noteId}
              rows={3}
              maxLength={NOTE_MAX}
              value={note}
              placeholder={verdict === 'failed' || verdict === 'blocked' ? 'What did you see instead?' : undefined}
              onChange={(event) => setNote(event.target.value)}
              onBlur={() => {
                if (note !== kept.current.note || state?.kind === 'failed') persist({ verdict, note });
              }}
            />
          </div>
          <div className="manual-step__saved">
            <span role={state?.kind === 'failed' ? 'alert' : 'status'} className={state?.kind === 'failed' ? 'manual-step__error' : undefined}>
              {state?.kind === 'saving' ? 'Saving…' : state?.kind === 'saved' ? 'Saved' : state?.kind === 'failed' ? state.text : ''}
            </span>
            {state?.kind === 'failed' && (
              <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => persist({ verdict, note })}>
                Try again
              </button>
            )}
          </div>
        </>
      ) : (
        <>
          <p className="manual-step__verdict">{step.verdict ? `Verdict: ${VERDICT_WORDS[step.verdict]}` : 'No verdict yet'}</p>
          {step.note && <p className="manual-step__note">{step.note}</p>}
        </>
      )}
      <StepEvidence stepRef={{ id: workId, step: number }} evidence={step.evidence} editable={editable} />
    </li>
  );
}
