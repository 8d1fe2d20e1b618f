import { sampleReport } from '../../reporters/sample-report.ts';
import type { RunReport } from '../../reporters/types.ts';

/** An Android build: its facts, permissions and findings. */
export function sample(): RunReport {
  return sampleReport({
    kind: 'mobile-static',
    group: 'Mobile',
    testName: 'Android build',
    status: 'failed',
    summary: {
      kind: 'mobile-static',
      app: {
        android: {
          package: 'test.acme.shop',
          versionName: '3.4.1',
          versionCode: 341,
          usesSdk: { minSdkVersion: 24, targetSdkVersion: 34 },
          usesPermissions: [{ name: 'android.permission.INTERNET' }, { name: 'android.permission.CAMERA' }, { name: 'android.permission.ACCESS_FINE_LOCATION' }],
          application: { label: 'Acme Shop', debuggable: true, allowBackup: true },
        },
      },
      findings: [
        { ruleId: 'mobile:debuggable', name: 'Android app is debuggable', risk: 'High', url: 'android://test.acme.shop', evidence: 'android:debuggable="true"', solution: 'Remove android:debuggable from release builds.' },
        { ruleId: 'mobile:allow-backup', name: 'Android app data can be backed up', risk: 'Medium', url: 'android://test.acme.shop', evidence: 'android:allowBackup="true"' },
      ],
    },
  });
}
