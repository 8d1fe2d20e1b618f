import { ConfigError } from './config/env.ts';
import { DataDirLockedError } from './lib/data-dir.ts';
import { serve } from './serve.ts';

// `npm run serve`: the same server as `fullstop serve`, without the CLI around it.
serve().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
