import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts a TypeScript entry of the repo (the server, or a bare one) as its own process, like production; answers
 * once `readyUrl` answers 2xx, and fails if the process exits first. `name` says which one in that failure.
 */
export function startProcess(
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  { name = script, stdout = 'inherit' }: { name?: string; stdout?: 'pipe' | 'inherit' } = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
  child.on('error', () => {});
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    const poll = async () => {
      try {
        if ((await fetch(readyUrl)).ok) return resolve(child);
      } catch {
        // not up yet
      }
      setTimeout(poll, 200);
    };
    void poll();
  });
}

/** Ends a process started by startProcess, and answers once it is gone. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * The operator API of a server started on `dataDir` (its operator token is written there at start): a JSON call that
 * throws with the route, the status and the body on any 4xx or 5xx.
 */
export function operatorApi(base: string, dataDir: string): <T>(method: string, urlPath: string, body?: unknown) => Promise<T> {
  const token = readFileSync(path.join(dataDir, 'operator-token'), 'utf8').trim();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return async <T>(method: string, urlPath: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${urlPath}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${urlPath}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
}
