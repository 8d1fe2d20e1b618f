import { AppFileError } from './app-file-error.ts';
import { parseBinaryPlist, parseXmlPlist } from './app-info-parser.ts';
import { checkBinaryPlist } from './binary-plist-check.ts';
import type { IpaInfo } from './ios.ts';
import { type ArchiveLimits, readArchive } from './zip-archive.ts';

export const IPA_INFO_PLIST = /^Payload\/[^/]+\.app\/Info\.plist$/;
export const IPA_PROVISION = /^Payload\/[^/]+\.app\/embedded\.mobileprovision$/;

const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function malformed(file: string, reason: string, cause?: unknown): AppFileError {
  return new AppFileError('app_malformed', `the app's ${file} is malformed: ${reason}`, { cause });
}

/** An Info.plist in either form Xcode writes: XML, or binary (checked before bplist-parser follows its references). */
export function parseInfoPlist(buf: Buffer): Record<string, unknown> {
  const first = buf[0];
  try {
    if (first === 0x3c /* < */ || first === 0xef /* UTF-8 BOM */) return record(parseXmlPlist(buf.toString('utf8')));
    if (buf.subarray(0, 6).toString('latin1') === 'bplist') {
      checkBinaryPlist(buf);
      return record(parseBinaryPlist(buf)[0]);
    }
  } catch (err) {
    if (err instanceof AppFileError) throw err;
    throw malformed('Info.plist', (err as Error).message, err);
  }
  throw malformed('Info.plist', 'it is neither an XML nor a binary property list');
}

/** The signed provisioning profile wraps an XML plist; only its entitlements matter here. */
function parseProvision(buf: Buffer): Record<string, unknown> {
  const text = buf.toString('latin1');
  const start = text.indexOf('<?xml');
  const end = text.indexOf('</plist>', start);
  if (start < 0 || end < 0) throw malformed('embedded.mobileprovision', 'it holds no property list');
  try {
    return record(parseXmlPlist(text.slice(start, end + '</plist>'.length)));
  } catch (err) {
    throw malformed('embedded.mobileprovision', (err as Error).message, err);
  }
}

function summarise(plist: Record<string, unknown>, provision: Record<string, unknown> | null): IpaInfo {
  const entitlements = record(provision?.Entitlements);
  return {
    CFBundleIdentifier: str(plist.CFBundleIdentifier),
    CFBundleShortVersionString: str(plist.CFBundleShortVersionString),
    MinimumOSVersion: str(plist.MinimumOSVersion),
    NSAppTransportSecurity: plist.NSAppTransportSecurity ? (record(plist.NSAppTransportSecurity) as IpaInfo['NSAppTransportSecurity']) : undefined,
    ...(provision ? { mobileProvision: { Entitlements: { 'get-task-allow': entitlements['get-task-allow'] } } } : {}),
  };
}

/** The IPA's Info.plist (and provisioning profile, when there is one), read with the archive limits. */
export async function readIpa(file: string, limits: ArchiveLimits, signal?: AbortSignal): Promise<IpaInfo> {
  const { files } = await readArchive(file, limits, { label: 'IPA', read: (name) => IPA_INFO_PLIST.test(name) || IPA_PROVISION.test(name), signal });
  const plists = [...files.keys()].filter((name) => IPA_INFO_PLIST.test(name));
  if (plists.length === 0) throw new AppFileError('app_malformed', 'the IPA has no Payload/<name>.app/Info.plist');
  if (plists.length > 1) throw new AppFileError('app_malformed', `the IPA holds ${plists.length} app bundles; one is expected`);
  const bundle = plists[0]!.slice(0, -'Info.plist'.length);
  const provision = files.get(`${bundle}embedded.mobileprovision`);
  return summarise(parseInfoPlist(files.get(plists[0]!)!), provision ? parseProvision(provision) : null);
}
