import { ConfigError } from '../config/env.ts';
import { DataDirLockedError } from '../lib/data-dir.ts';
import { OperatorApiError } from './operator-client.ts';
import { createProgram } from './program.ts';

try {
  await createProgram().parseAsync(process.argv);
} catch (err) {
  if (err instanceof OperatorApiError || err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`fullstop: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exitCode = 1;
  // A long-running command (serve, worker) that failed half-way may hold connections open that would keep the
  // process alive, failed, forever; a process with nothing left open ends before this fires.
  setTimeout(() => process.exit(1), 2000).unref();
}
