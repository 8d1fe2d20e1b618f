/**
 * The site survey's face for the server (`@fullstop/engine/survey`): what it measures, and the module a runner
 * process loads to run it. Light on purpose: the survey's code (Playwright) loads only in the runner process.
 */
import { readFileSync } from 'node:fs';
import { entryFile, sourceCopyFile } from '../sandbox/entry-file.ts';

export * from './survey-types.ts';
export * from '../lib/page-path.ts';
export * from './proposed-pages.ts';

/** The runners module of a survey's attempt (`runInSandbox`'s `runnersModule`). */
export const SITE_SURVEY_MODULE = entryFile('site-survey');

/**
 * The engine's notion of a page being ready (lib/page-ready.ts, decision 0089) as a starter suite carries it: the
 * same source, its Playwright types taken from `@playwright/test`, the one package a suite imports.
 */
export function pageReadySource(): string {
  return readFileSync(sourceCopyFile('page-ready'), 'utf8').replace(/from 'playwright-core'/g, "from '@playwright/test'");
}
