import type { ReactNode } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { BusyButton } from '../components/busy-button.tsx';
import { Notice } from '../components/notice.tsx';

interface TestResultProps {
  /** The receiver's answer to a test delivery. */
  answer: { delivered: boolean; message: string } | undefined;
  /** Why the test (or the last change) could not be sent. */
  error: unknown;
  className?: string;
}

/** What "Send a test …" came back with: the receiver's answer, good or bad, or why it could not be sent. */
export function TestResult({ answer, error, className }: TestResultProps) {
  const extra = className ? ` ${className}` : '';
  if (answer) {
    return (
      <p className={`portal-alert ${answer.delivered ? 'portal-alert--success' : 'portal-alert--error'}${extra}`} role="status">
        {answer.message}
      </p>
    );
  }
  return error ? (
    <Notice tone="error" className={className}>
      {failureMessage(error)}
    </Notice>
  ) : null;
}

interface SendTestButtonProps {
  sending: boolean;
  onSend: () => void;
  className?: string;
  children: ReactNode;
}

/** "Send a test …": reads "Sending…" while the test goes out; TestResult shows what came back. */
export function SendTestButton({ sending, onSend, className = 'btn btn--ghost portal-btn-sm', children }: SendTestButtonProps) {
  return (
    <BusyButton type="button" className={className} busy={sending} busyText="Sending…" onClick={onSend}>
      {children}
    </BusyButton>
  );
}
