import type { AttemptEndHow, ProcessIsolation, SystemProcess } from '@fullstop/contracts';
import { Notice } from '../../components/notice.tsx';

/** How a test's processes are all ended with it, in words. */
const ATTEMPT_END: Readonly<Record<AttemptEndHow, string>> = {
  cgroup: 'Tests end whole (cgroups)',
  'runner-user': 'Tests end whole (every process of the test’s user is killed)',
  subreaper: 'Tests end whole unless their runner is killed first (child subreaper)',
  tags: 'A detached process that drops its test’s tag may outlive the test',
};

/** Who runners run as, in words, and how much that weighs: `bad` (not kept from the server), `weak` (tests share), or fine. */
function usersWords(i: ProcessIsolation): { text: string; level: 'bad' | 'weak' | null } {
  const users = i.runnerUsers;
  const ownUser = 'Runners run as the server’s own user (ENGINE_RUNNER_USER is not set): a browser exploit could read the server’s secrets';
  if (!users) return i.runnerUser ? { text: `Runners run as ${i.runnerUser}`, level: null } : { text: ownUser, level: 'bad' };
  switch (users.mode) {
    case 'refused':
      return { text: `Runs no tests: ${users.problem ?? 'it has no runner user'}`, level: 'bad' };
    case 'server':
      return { text: ownUser, level: 'bad' };
    case 'shared':
      return { text: `Runners run as ${users.names[0] ?? i.runnerUser ?? '?'}, shared by the tests running at once: they can read each other’s processes`, level: 'weak' };
    case 'pool': {
      const names = users.names.length > 2 ? `${users.names[0]} … ${users.names.at(-1)}` : users.names.join(', ');
      const text = `Runners run as ${users.names.length} users, one per running test (${names})`;
      return users.problem ? { text: `${text}; ${users.problem}`, level: 'weak' } : { text, level: null };
    }
  }
}

/**
 * What the System page says about a process's runners: its sentences, and how much of a warning they are: `error` when
 * they are not kept from the server (or run nothing), `partial` when tests are not kept from each other or from the
 * network as fully as they could be (issue 37).
 */
function isolationWords(p: SystemProcess): { level: 'error' | 'partial' | null; parts: string[] } {
  if (p.workers === 0) return { level: null, parts: ['Runs no tests'] };
  const i = p.isolation;
  if (!i) return { level: null, parts: ['Unknown: this process’s version does not report it'] };
  const user = usersWords(i);
  // Refusing tests, the rest means nothing: the refusal and its fix alone.
  if (i.runnerUsers?.mode === 'refused') return { level: 'error', parts: [user.text] };
  const sandbox = i.chromiumSandbox ? 'Chromium sandbox on' : `Chromium sandbox off: ${i.reason ?? 'no reason given'}`;
  const parts = [user.text, sandbox];
  let weak = user.level === 'weak';
  if (i.attemptEnd) {
    parts.push(ATTEMPT_END[i.attemptEnd.how]);
    weak ||= i.attemptEnd.how === 'tags';
  }
  if (i.networkNamespace) {
    parts.push(i.networkNamespace.ok ? 'Own network namespace per test' : `No network namespace per test: ${i.networkNamespace.reason ?? 'no reason given'}`);
    weak ||= !i.networkNamespace.ok;
  }
  const level = user.level === 'bad' || !i.chromiumSandbox ? 'error' : weak ? 'partial' : null;
  return { level, parts };
}

/**
 * Whether code that takes over a test's browser stays away from the server and from the other tests (decision 0077,
 * issue 37): the runner users, Chromium's own sandbox, how tests end and their network, as one line; a warning box
 * when something is missing.
 */
export function RunnerIsolation({ process }: { process: SystemProcess }) {
  const { level, parts } = isolationWords(process);
  // One part a line, still one sentence to a screen reader and to copy.
  const line = parts.map((part, index) => (
    <span key={part} className="ops-isolation-part">
      {part}
      {index < parts.length - 1 ? '; ' : ''}
    </span>
  ));
  if (!level) return <span className={process.isolation && process.workers > 0 ? undefined : 'ops-muted'}>{line}</span>;
  if (level === 'partial') {
    return (
      <Notice tone="info" className="ops-isolation-warning">
        <strong>Partly isolated.</strong> {line}
      </Notice>
    );
  }
  return (
    <Notice tone="error" className="ops-isolation-warning">
      <strong>Not isolated.</strong> {line}
    </Notice>
  );
}
