import path from 'node:path';
import { defineRunner } from '../../lib/define-runner.ts';
import { countByRisk, risksOverThresholds } from '../../lib/findings.ts';
import { writeJsonArtifact } from '../../lib/result.ts';
import type { Finding } from '../../types.ts';
import { androidFindings } from './android.ts';
import { iosFindings } from './ios.ts';
import { mobileStaticInput } from './options.ts';
import { readApk } from './read-apk.ts';
import { readIpa } from './read-ipa.ts';
import { ANALYSIS_ARCHIVE_LIMITS } from './zip-archive.ts';
import { facts } from './facts.ts';

export class NoAppError extends Error {
  readonly code = 'no_app';
}

/**
 * The client's uploaded APK and/or IPA, read within bounds (see zip-archive.ts and the two format checks) and
 * parsed with app-info-parser's manifest and plist parsers; findings by risk, no network. A finding's url names
 * the app (`android://<package>`, `ios://<bundle id>`), so false-positive marks survive a re-upload.
 */
export const mobileStaticRunner = defineRunner({
  facts,
  schema: mobileStaticInput,
  async execute({ options, thresholds }, { target, ctx }) {
    const wantAndroid = options.platform !== 'ios' && target.androidApp;
    const wantIos = options.platform !== 'android' && target.iosApp;
    if (!wantAndroid && !wantIos) {
      throw new NoAppError(`no ${options.platform === 'any' ? 'mobile' : options.platform} build has been uploaded`);
    }
    const findings: Finding[] = [];
    const app: Record<string, unknown> = {};
    if (target.androidApp && wantAndroid) {
      const info = await readApk(target.androidApp, ANALYSIS_ARCHIVE_LIMITS, ctx.signal);
      app.android = info;
      findings.push(...androidFindings(info, options, `android://${info.package ?? path.basename(target.androidApp)}`));
    }
    if (target.iosApp && wantIos) {
      const info = await readIpa(target.iosApp, ANALYSIS_ARCHIVE_LIMITS, ctx.signal);
      app.ios = info;
      findings.push(...iosFindings(info, options, `ios://${info.CFBundleIdentifier ?? path.basename(target.iosApp)}`));
    }
    const counts = countByRisk(findings);
    const passed = risksOverThresholds(counts, thresholds).length === 0;
    ctx.log('mobile static analysis done', { files: [target.androidApp, target.iosApp].filter(Boolean).map((f) => path.basename(f as string)), counts });
    const artifact = await writeJsonArtifact(ctx, 'mobile-static/findings.json', { counts, findings, app }, 'Mobile static analysis');
    return {
      status: passed ? 'passed' : 'failed',
      totals: { totalTests: 1, passedTests: passed ? 1 : 0, failedTests: passed ? 0 : 1, skippedTests: 0 },
      summary: { kind: 'mobile-static', findings, app },
      artifacts: [artifact],
    };
  },
});

/** The name the registry and the runner processes load a kind's runner by. */
export { mobileStaticRunner as runner };
