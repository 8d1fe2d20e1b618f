/**
 * The subreaper wrapper's script (containment.ts): makes itself a child subreaper, then becomes node (argv[1] ...);
 * exits 70 if prctl refuses.
 */
export const SUBREAPER_SCRIPT = [
  'import ctypes,os,sys',
  'if ctypes.CDLL(None,use_errno=True).prctl(36,1,0,0,0):sys.stderr.write("PR_SET_CHILD_SUBREAPER: errno %d\\n"%ctypes.get_errno());sys.exit(70)',
  'os.execv(sys.argv[1],sys.argv[1:])',
].join('\n');

/** Supervisor → launcher. */
export type LauncherRequest =
  | {
      type: 'spawn';
      id: number;
      entry: string;
      args: string[];
      cwd: string;
      env: NodeJS.ProcessEnv;
      execArgv: string[];
      niceness: number;
      /** The runner user's (runner-user.ts): the fork switches to it, groups dropped, before the runner starts. */
      uid?: number;
      gid?: number;
      /** A python3 to start the runner through, which makes it a child subreaper first (containment.ts). */
      subreaper?: string;
    }
  | { type: 'send'; id: number; message: unknown }
  | { type: 'kill'; id: number; signal: NodeJS.Signals };

/** Launcher → supervisor: what happened to runner process `id`. */
export type LauncherEvent =
  | { type: 'ready' }
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'output'; id: number; chunk: string }
  | { type: 'message'; id: number; message: unknown }
  | { type: 'error'; id: number; message: string }
  | { type: 'disconnect'; id: number }
  | { type: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };
