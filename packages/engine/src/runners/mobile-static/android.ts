import type { Finding } from '../../types.ts';
import type { MobileStaticOptions } from './options.ts';

/** What app-info-parser returns for an APK (the parts read here). */
export interface ApkInfo {
  package?: string;
  versionName?: string;
  versionCode?: number;
  usesPermissions?: { name?: string }[];
  usesSdk?: { minSdkVersion?: number; targetSdkVersion?: number };
  application?: { debuggable?: boolean; allowBackup?: boolean; usesCleartextTraffic?: boolean; networkSecurityConfig?: string };
}

/** Android's "dangerous" protection level: runtime permissions a user must grant. */
export const DANGEROUS_PERMISSIONS = new Set(
  [
    'READ_CALENDAR', 'WRITE_CALENDAR', 'CAMERA', 'READ_CONTACTS', 'WRITE_CONTACTS', 'GET_ACCOUNTS',
    'ACCESS_FINE_LOCATION', 'ACCESS_COARSE_LOCATION', 'ACCESS_BACKGROUND_LOCATION', 'RECORD_AUDIO',
    'READ_PHONE_STATE', 'READ_PHONE_NUMBERS', 'CALL_PHONE', 'ANSWER_PHONE_CALLS', 'READ_CALL_LOG', 'WRITE_CALL_LOG',
    'ADD_VOICEMAIL', 'USE_SIP', 'PROCESS_OUTGOING_CALLS', 'BODY_SENSORS', 'BODY_SENSORS_BACKGROUND', 'SEND_SMS',
    'RECEIVE_SMS', 'READ_SMS', 'RECEIVE_WAP_PUSH', 'RECEIVE_MMS', 'READ_EXTERNAL_STORAGE', 'WRITE_EXTERNAL_STORAGE',
    'ACCESS_MEDIA_LOCATION', 'ACTIVITY_RECOGNITION', 'BLUETOOTH_SCAN', 'BLUETOOTH_CONNECT', 'BLUETOOTH_ADVERTISE',
    'NEARBY_WIFI_DEVICES', 'POST_NOTIFICATIONS', 'READ_MEDIA_IMAGES', 'READ_MEDIA_VIDEO', 'READ_MEDIA_AUDIO',
    'UWB_RANGING',
  ].map((p) => `android.permission.${p}`),
);

export function androidFindings(info: ApkInfo, options: MobileStaticOptions, url: string): Finding[] {
  const out: Finding[] = [];
  const app = info.application ?? {};
  const minSdk = info.usesSdk?.minSdkVersion;
  const targetSdk = info.usesSdk?.targetSdkVersion;
  if (app.debuggable === true) {
    out.push({
      ruleId: 'mobile:debuggable',
      name: 'Android app is debuggable',
      risk: 'High',
      url,
      description: "A debuggable app lets anyone with the phone and a USB cable attach a debugger, read the app's private data and change how it behaves.",
      evidence: 'android:debuggable="true"',
      solution: 'Remove android:debuggable from release builds.',
    });
  }
  if (app.allowBackup !== false) {
    out.push({
      ruleId: 'mobile:allow-backup',
      name: 'Android app data can be backed up',
      risk: app.allowBackup === true ? 'Medium' : 'Low',
      url,
      description: "Android backups copy the app's private data (sessions, tokens, cached personal data) off the phone, where other tools can read it.",
      evidence: app.allowBackup === true ? 'android:allowBackup="true"' : 'android:allowBackup not set (defaults to true)',
      solution: 'Set android:allowBackup="false" or restrict backups with dataExtractionRules.',
    });
  }
  // Cleartext is allowed by default below API 28 unless a network security config says otherwise.
  const cleartextByDefault = app.usesCleartextTraffic === undefined && !app.networkSecurityConfig && (targetSdk ?? 0) < 28;
  if (app.usesCleartextTraffic === true || cleartextByDefault) {
    out.push({
      ruleId: 'mobile:cleartext-traffic',
      name: 'Android app allows cleartext (http) traffic',
      risk: app.usesCleartextTraffic === true ? 'Medium' : 'Low',
      url,
      description: 'The app may talk to servers over plain http: anyone on the same network (public Wi-Fi) can read or change that traffic.',
      evidence: app.usesCleartextTraffic === true ? 'android:usesCleartextTraffic="true"' : `targetSdkVersion ${targetSdk ?? 'unset'} < 28 allows cleartext by default`,
      solution: 'Set android:usesCleartextTraffic="false" and use https everywhere.',
    });
  }
  for (const permission of info.usesPermissions ?? []) {
    if (permission.name && DANGEROUS_PERMISSIONS.has(permission.name)) {
      out.push({
        ruleId: 'mobile:dangerous-permission',
        name: 'Android app requests a dangerous permission',
        risk: 'Low',
        url,
        description: 'The app asks for a permission that reaches personal data or device features; each one is a reason for a user to refuse, and a risk if the app is compromised.',
        param: permission.name,
        evidence: `<uses-permission android:name="${permission.name}"/>`,
        solution: 'Request only the permissions the app needs.',
      });
    }
  }
  if (minSdk === undefined || minSdk < options.minSdkAtLeast) {
    out.push({
      ruleId: 'mobile:min-sdk',
      name: 'Android app installs on outdated Android versions',
      risk: 'Medium',
      url,
      description: "The app installs on Android versions that no longer get security updates, where known flaws in the system put the app's data at risk.",
      evidence: `minSdkVersion ${minSdk ?? 'unset'} < ${options.minSdkAtLeast}`,
      solution: `Raise minSdkVersion to ${options.minSdkAtLeast} or more.`,
    });
  }
  if (targetSdk === undefined || targetSdk < options.targetSdkAtLeast) {
    out.push({
      ruleId: 'mobile:target-sdk',
      name: 'Android app targets an old API level',
      risk: 'Low',
      url,
      description: 'Android keeps older, less safe behaviour for apps that target an old API level; Google Play also requires a recent target for updates.',
      evidence: `targetSdkVersion ${targetSdk ?? 'unset'} < ${options.targetSdkAtLeast}`,
      solution: `Target API level ${options.targetSdkAtLeast} or more.`,
    });
  }
  return out;
}
