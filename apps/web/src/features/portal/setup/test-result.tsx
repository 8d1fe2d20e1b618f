import { failureMessage } from '@/lib/failure-message.ts';
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
