import type { $ZodConfig } from 'zod/v4/core';

declare global {
  // Zod's config object, shared by every copy of zod that loads; see the note below.
  var __zod_globalConfig: $ZodConfig | undefined;
}

/**
 * The contracts' zod schemas run in the browser under our CSP, whose script-src has no 'unsafe-eval'. Unless told
 * to be jitless, zod probes `new Function` when it builds its first object schema: the probe fails (zod then
 * parses without it, as it would anyway) but the browser reports a CSP violation, which DevTools lists as an
 * issue and Lighthouse counts against best practices. Imported first by main.tsx, so it runs before any page
 * chunk loads zod. Zod reads its config from this global and documents pre-setting it before zod loads; calling
 * `z.config()` here instead would pull zod's core into the main chunk (4 KB gzip) for one flag.
 */
(globalThis.__zod_globalConfig ??= {}).jitless = true;
