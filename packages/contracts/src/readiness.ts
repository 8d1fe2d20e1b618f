import { z } from 'zod';

// What the server can run: each program and package a kind of test needs (Chromium, wapiti, Lighthouse ...),
// checked at start. GET /readyz tells anyone whether all are there; GET /operator/engines tells operators which
// are missing, where they were looked for and how to install them.

/** `ready`: every engine is there (optional ones aside). `degraded`: the server serves, but the tests of some kinds cannot run. */
export const readinessStatus = z.enum(['ready', 'degraded']);
export type ReadinessStatus = z.infer<typeof readinessStatus>;

/** GET /readyz: public, so no paths, versions or engine names. */
export const readinessResponse = z.object({ status: readinessStatus });
export type ReadinessResponse = z.infer<typeof readinessResponse>;

/** One engine, as checked on the machine of the process that answers. */
export const engineCheck = z.object({
  /** Its stable name: chromium, firefox, wapiti, playwright, lighthouse, axe. */
  engine: z.string(),
  /** As an operator reads it: "Chromium", "wapiti", "the lighthouse package". */
  title: z.string(),
  ok: z.boolean(),
  /** The version it answered (programs: `--version`; packages: their package.json), when known. */
  version: z.string().nullable(),
  /** The program's path, or the packages looked for. */
  location: z.string(),
  /** Why it is not usable ("not installed at /usr/bin/wapiti"); null when ok. */
  problem: z.string().nullable(),
  /** The command that installs it. */
  install: z.string(),
  /** The setting that points the server at it (CHROMIUM_PATH, WAPITI_PATH), for programs. */
  setting: z.string().nullable(),
  /** The kinds of test that need it. */
  kinds: z.array(z.string()),
  /** Needed only by tests that ask for it (Firefox): missing, it leaves the status `ready`. */
  optional: z.boolean().optional(),
});
export type EngineCheck = z.infer<typeof engineCheck>;

/** GET /operator/engines (and `fullstop engines`): every engine, checked now. */
export const engineReadiness = z.object({
  status: readinessStatus,
  checkedAt: z.string(),
  engines: z.array(engineCheck),
});
export type EngineReadiness = z.infer<typeof engineReadiness>;
