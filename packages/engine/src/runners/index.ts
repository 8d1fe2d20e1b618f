import type { Runner, TestKind } from '../types.ts';
import { accessibilityRunner } from './accessibility/index.ts';
import { apiRunner } from './api/index.ts';
import { browserRunner } from './browser/index.ts';
import { lighthouseRunner } from './lighthouse/index.ts';
import { loadRunner } from './load/index.ts';
import { mobileStaticRunner } from './mobile-static/index.ts';
import { securityChecksRunner } from './security-checks/index.ts';
import { securityScanRunner } from './security-scan/index.ts';

/** Every runner, by kind. */
export const runners: Record<TestKind, Runner> = {
  browser: browserRunner,
  accessibility: accessibilityRunner,
  lighthouse: lighthouseRunner,
  load: loadRunner,
  'security-scan': securityScanRunner,
  'security-checks': securityChecksRunner,
  api: apiRunner,
  'mobile-static': mobileStaticRunner,
};

export {
  accessibilityRunner,
  apiRunner,
  browserRunner,
  lighthouseRunner,
  loadRunner,
  mobileStaticRunner,
  securityChecksRunner,
  securityScanRunner,
};
export { countByRisk, RISKS } from './security-scan/index.ts';
export { PASSIVE_RULE_IDS } from './security-scan/passive-rules.ts';
