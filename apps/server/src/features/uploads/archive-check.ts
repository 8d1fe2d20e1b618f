import { AppFileError, type ArchiveContents, type ArchiveLimits, IPA_INFO_PLIST, IPA_PROVISION, readArchive } from '@fullstop/engine';
import type { UploadPlatform } from '@fullstop/contracts';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../../lib/errors.ts';

const MANIFEST = 'AndroidManifest.xml';

/** What a build must contain to be accepted; the extension and the browser's content type prove nothing. */
export const REQUIREMENTS: Record<UploadPlatform, string> = {
  android: 'an APK (a zip archive with AndroidManifest.xml and classes.dex)',
  ios: 'an IPA (a zip archive with Payload/<name>.app/Info.plist)',
};

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Checks an uploaded file really is a build for the platform, with the engine's bounded reader: the central
 * directory's entry count and declared sizes first, then what the analysis will read (the manifest, or Info.plist
 * and the provisioning profile) inflated under a byte cap.
 * Throws 413 for what would inflate or count past the limits, 415 for anything that is not such a build.
 * The manifest's content is the analysis's business: a malformed one is a finding of the run, not a refusal.
 * Answers with what was read, for the app's name and version (app-info.ts).
 */
export async function checkBuild(platform: UploadPlatform, file: string, limits: ArchiveLimits): Promise<ArchiveContents> {
  const notA = (reason: string) => new UnsupportedMediaTypeError(`The file is not ${REQUIREMENTS[platform]}: ${reason}`);
  const query =
    platform === 'android'
      ? { label: 'APK', read: (name: string) => name === MANIFEST, note: (name: string) => name === 'classes.dex' }
      : { label: 'IPA', read: (name: string) => IPA_INFO_PLIST.test(name) || IPA_PROVISION.test(name) };
  let contents;
  try {
    contents = await readArchive(file, limits, query);
  } catch (err) {
    if (!(err instanceof AppFileError) || err.code === 'app_missing') throw err;
    if (err.code === 'app_too_large') throw new PayloadTooLargeError(capitalised(err.message));
    throw notA(err.message);
  }
  if (platform === 'android') {
    if (!contents.files.has(MANIFEST)) throw notA(`it has no ${MANIFEST}`);
    if (!contents.noted.has('classes.dex')) throw notA('it has no classes.dex');
    return contents;
  }
  const bundles = [...contents.files.keys()].filter((name) => IPA_INFO_PLIST.test(name)).length;
  if (bundles === 0) throw notA('it has no Payload/<name>.app/Info.plist');
  if (bundles > 1) throw notA(`it holds ${bundles} app bundles; one is expected`);
  return contents;
}
