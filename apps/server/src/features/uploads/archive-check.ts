import type { UploadPlatform } from '@fullstop/contracts';
import yauzl from 'yauzl';

/** Stop reading a central directory after this many entries: a real app has far fewer, a zip bomb far more. */
const MAX_ENTRIES = 200_000;

const IPA_INFO_PLIST = /^Payload\/[^/]+\.app\/Info\.plist$/;

/** What a build must contain to be accepted; the extension and the browser's content type prove nothing. */
export const REQUIREMENTS: Record<UploadPlatform, string> = {
  android: 'an APK (a zip archive with AndroidManifest.xml and classes.dex)',
  ios: 'an IPA (a zip archive with Payload/<name>.app/Info.plist)',
};

function listEntryNames(file: string, stopWhen: (names: Set<string>) => boolean): Promise<Set<string> | null> {
  return new Promise((resolve) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) return resolve(null);
      const names = new Set<string>();
      let count = 0;
      const finish = (value: Set<string> | null) => {
        zip.close();
        resolve(value);
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        names.add(entry.fileName);
        count += 1;
        if (stopWhen(names) || count >= MAX_ENTRIES) return finish(names);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', () => resolve(null));
      zip.readEntry();
    });
  });
}

const isApk = (names: Set<string>) => names.has('AndroidManifest.xml') && names.has('classes.dex');
const isIpa = (names: Set<string>) => [...names].some((n) => IPA_INFO_PLIST.test(n));

/** True when the file really is a build for the platform. */
export async function isBuildFor(platform: UploadPlatform, file: string): Promise<boolean> {
  const check = platform === 'android' ? isApk : isIpa;
  const names = await listEntryNames(file, check);
  return names !== null && check(names);
}
