import type { SystemProcess } from '@fullstop/contracts';
import { Notice } from '../../components/notice.tsx';

/** What the System page says about a process's runners: its sentences, and whether they are a warning. */
export function isolationWords(p: SystemProcess): { warning: boolean; parts: string[] } {
  if (p.workers === 0) return { warning: false, parts: ['Runs no tests'] };
  const i = p.isolation;
  if (!i) return { warning: false, parts: ['Unknown: this process’s version does not report it'] };
  const user = i.runnerUser
    ? `Runners run as ${i.runnerUser}`
    : 'Runners run as the server’s own user (ENGINE_RUNNER_USER is not set): a browser exploit could read the server’s secrets';
  const sandbox = i.chromiumSandbox ? 'Chromium sandbox on' : `Chromium sandbox off: ${i.reason ?? 'no reason given'}`;
  return { warning: !i.runnerUser || !i.chromiumSandbox, parts: [user, sandbox] };
}

/**
 * Whether code that takes over a test's browser stays away from the server (decision 0077): the runner user and
 * Chromium's own sandbox, as one line; a warning box when either is missing.
 */
export function RunnerIsolation({ process }: { process: SystemProcess }) {
  const { warning, parts } = isolationWords(process);
  const line = parts.join('; ');
  if (!warning) return <span className={process.isolation && process.workers > 0 ? undefined : 'ops-muted'}>{line}</span>;
  return (
    <Notice tone="error" className="ops-isolation-warning">
      <strong>Not isolated.</strong> {line}
    </Notice>
  );
}
