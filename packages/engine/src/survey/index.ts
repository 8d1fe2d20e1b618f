/**
 * The site survey's face for the server (`@fullstop/engine/survey`): what it measures, and the module a runner
 * process loads to run it. Light on purpose: the survey's code (Playwright) loads only in the runner process.
 */
import { entryFile } from '../sandbox/entry-file.ts';

export * from './survey-types.ts';

/** The runners module of a survey's attempt (`runInSandbox`'s `runnersModule`). */
export const SITE_SURVEY_MODULE = entryFile('site-survey');
