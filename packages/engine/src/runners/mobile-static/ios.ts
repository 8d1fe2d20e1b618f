import type { Finding } from '../../types.ts';
import type { MobileStaticOptions } from './options.ts';

/** What app-info-parser returns for an IPA: its Info.plist, plus the provisioning profile when there is one. */
export interface IpaInfo {
  CFBundleIdentifier?: string;
  CFBundleShortVersionString?: string;
  MinimumOSVersion?: string;
  NSAppTransportSecurity?: {
    NSAllowsArbitraryLoads?: boolean;
    NSAllowsArbitraryLoadsInWebContent?: boolean;
    NSExceptionDomains?: Record<string, { NSExceptionAllowsInsecureHTTPLoads?: boolean; NSExceptionMinimumTLSVersion?: string }>;
  };
  mobileProvision?: { Entitlements?: Record<string, unknown> };
}

function versionBelow(version: string, floor: string): boolean {
  const a = version.split('.').map(Number);
  const b = floor.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

export function iosFindings(info: IpaInfo, options: MobileStaticOptions, url: string): Finding[] {
  const out: Finding[] = [];
  const ats = info.NSAppTransportSecurity ?? {};
  if (ats.NSAllowsArbitraryLoads === true) {
    out.push({
      ruleId: 'mobile:ats-arbitrary-loads',
      name: 'App Transport Security is disabled (NSAllowsArbitraryLoads)',
      risk: 'High',
      url,
      description: 'App Transport Security, which makes the app use https with modern TLS, is switched off: the app may talk to any server over plain http.',
      evidence: 'NSAllowsArbitraryLoads = true',
      solution: 'Remove NSAllowsArbitraryLoads; add narrow exception domains only where unavoidable.',
    });
  }
  if (ats.NSAllowsArbitraryLoadsInWebContent === true) {
    out.push({
      ruleId: 'mobile:ats-web-content',
      name: 'App Transport Security is disabled for web content',
      risk: 'Medium',
      url,
      description: 'Web views in the app may load pages over plain http, where anyone on the network can read or change them.',
      evidence: 'NSAllowsArbitraryLoadsInWebContent = true',
      solution: 'Load web content over https only.',
    });
  }
  for (const [domain, exception] of Object.entries(ats.NSExceptionDomains ?? {})) {
    if (exception.NSExceptionAllowsInsecureHTTPLoads === true) {
      out.push({
        ruleId: 'mobile:ats-exception-domain',
        name: 'App Transport Security allows http to a domain',
        risk: 'Medium',
        url,
        description: 'The app may talk to this domain over plain http, where anyone on the network can read or change the traffic.',
        param: domain,
        evidence: `${domain}: NSExceptionAllowsInsecureHTTPLoads = true`,
        solution: 'Serve that domain over https and remove the exception.',
      });
    }
  }
  if (info.mobileProvision?.Entitlements?.['get-task-allow'] === true) {
    out.push({
      ruleId: 'mobile:ios-debuggable',
      name: 'iOS app is signed for debugging (get-task-allow)',
      risk: 'High',
      url,
      evidence: 'get-task-allow = true (provisioning profile entitlements)',
      description: 'A build signed for debugging lets a debugger attach to the app on a device and read its memory; it is not the build users should get.',
      solution: 'Ship builds signed with a distribution profile.',
    });
  }
  const minimum = info.MinimumOSVersion;
  if (!minimum || versionBelow(minimum, options.iosMinimumVersionAtLeast)) {
    out.push({
      ruleId: 'mobile:ios-min-version',
      name: 'iOS app installs on outdated iOS versions',
      risk: 'Low',
      url,
      description: "The app installs on iOS versions that no longer get security updates, where known flaws in the system put the app's data at risk.",
      evidence: `MinimumOSVersion ${minimum ?? 'unset'} < ${options.iosMinimumVersionAtLeast}`,
      solution: `Raise the deployment target to iOS ${options.iosMinimumVersionAtLeast} or more.`,
    });
  }
  return out;
}
