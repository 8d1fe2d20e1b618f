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
