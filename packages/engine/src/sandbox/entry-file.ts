import { fileURLToPath } from 'node:url';

/**
 * The engine's files that another process or thread starts by path (a fork, a worker thread, a Playwright
 * reporter), by their name in the server's bundle → their place under packages/engine/src. The server's build
 * (apps/server/scripts/build.ts) emits each as an entry point of its own, named after its key.
 */
export const ENTRY_FILES = {
  'runner-host': 'sandbox/runner-host',
  launcher: 'sandbox/launcher',
  'memory-monitor-worker': 'sandbox/memory-monitor-worker',
  'steps-reporter': 'runners/browser/steps-reporter',
  'healing-hook': 'runners/browser/healing/hook',
  'mobile-ui-specs': 'runners/mobile-ui/spec-child',
  'site-survey': 'survey/site-survey',
  'browser-servers': 'runners/browser/browser-servers',
  'browser-host': 'runners/browser/browser-host',
  'warm-firefox': 'sandbox/warm-firefox-child',
} as const;

export type EntryName = keyof typeof ENTRY_FILES;

/** Run from the TypeScript source (tests, tsx) this file is itself a `.ts`; in the bundle it is a `.js` chunk. */
const fromSource = import.meta.url.endsWith('.ts');

/**
 * The absolute path of an entry file: the `.ts` beside this source, or the `.js` the build put beside this chunk
 * (the bundle is flat: entries and chunks share apps/server/dist).
 */
export function entryFile(name: EntryName): string {
  return fileURLToPath(fromSource ? new URL(`../${ENTRY_FILES[name]}.ts`, import.meta.url) : new URL(`./${name}.js`, import.meta.url));
}

/**
 * Engine sources a generated suite carries a copy of, by name → their place under packages/engine/src: a starter
 * suite's specs wait for a page as the engine does (lib/page-ready.ts), with no import of the engine. The server's
 * build copies each into apps/server/dist as is, named `<name>.source.ts`.
 */
export const SOURCE_COPIES = {
  'page-ready': 'lib/page-ready',
} as const;

/** The absolute path of an engine source a suite carries a copy of: the source itself, or the build's copy. */
export function sourceCopyFile(name: keyof typeof SOURCE_COPIES): string {
  return fileURLToPath(fromSource ? new URL(`../${SOURCE_COPIES[name]}.ts`, import.meta.url) : new URL(`./${name}.source.ts`, import.meta.url));
}
