import { defineKind } from '../../lib/kind-facts.ts';
import type { AppFileError } from './app-file-error.ts';
import type { NoAppError } from './index.ts';
import type { Finding } from '../../types.ts';

export const facts = defineKind(
  'mobile-static',
  // Light: unzips and parses one build, no browser, no network.
  { title: 'mobile app analysis', label: 'Mobile app analysis', timeLimitSeconds: 180, typicalSeconds: 2, weight: 0.25 },
  () => ({ kind: 'mobile-static', findings: [], app: {} }),
  // A build that is missing, malformed or too large ends the run like a crash does: retried while attempts remain.
  {
    no_app: { retried: true },
    app_missing: { retried: true },
    app_malformed: { retried: true },
    app_too_large: { retried: true },
  } satisfies Record<NoAppError['code'] | AppFileError['code'], { retried: boolean }>,
);

// What a run of this kind returns as its summary: its member of RunnerSummary.
declare module '../../types.ts' {
  interface KindSummaries {
    'mobile-static': { kind: 'mobile-static'; findings: Finding[]; app: Record<string, unknown> };
  }
}
