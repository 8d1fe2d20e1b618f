import type { Runner, TestKind } from '../types.ts';

/**
 * Each kind's runner, imported on its own: the runner process loads what its test needs and nothing else
 * (the whole engine takes ~1.5 s to load here, one kind 0.15-0.6 s).
 */
export const KIND_RUNNERS: Record<TestKind, () => Promise<Runner>> = {
  browser: async () => (await import('../runners/browser/index.ts')).browserRunner,
  accessibility: async () => (await import('../runners/accessibility/index.ts')).accessibilityRunner,
  lighthouse: async () => (await import('../runners/lighthouse/index.ts')).lighthouseRunner,
  load: async () => (await import('../runners/load/index.ts')).loadRunner,
  'security-scan': async () => (await import('../runners/security-scan/index.ts')).securityScanRunner,
  'security-checks': async () => (await import('../runners/security-checks/index.ts')).securityChecksRunner,
  api: async () => (await import('../runners/api/index.ts')).apiRunner,
  'mobile-static': async () => (await import('../runners/mobile-static/index.ts')).mobileStaticRunner,
};
