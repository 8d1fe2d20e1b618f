import type { AppInfo, UploadPlatform } from '@fullstop/contracts';
import { IPA_INFO_PLIST, parseInfoPlist, parseManifestXml } from '@fullstop/engine';

/** What the portal shows of a name or version: one line, no longer than a person would read. */
const MAX_LENGTH = 200;
/**
 * The largest manifest or Info.plist parsed here, on the API's own thread. The parsers are bounded (their format
 * checks) but not cheap: app-info-parser's binary XML walk takes about 0.5 ms per KiB and the XML plist parser
 * (xmldom) about 5 ms per KiB on a busy machine. Real ones are a few KiB (Xcode writes Info.plist in binary);
 * past these sizes the upload is still accepted, with its name and version unknown, and the analysis (in its own
 * process) reads the file whole.
 */
const MAX_BINARY_BYTES = 256 * 1024;
const MAX_XML_PLIST_BYTES = 64 * 1024;
const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * A value the build states in words. app-info-parser writes an attribute that points into resources.arsc as
 * "resourceId:0x7f…": the words are in that table, which the upload does not read, so the value is unknown.
 */
function text(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string' || v.startsWith('resourceId:')) return null;
  const clean = v.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  if (!clean) return null;
  return clean.length > MAX_LENGTH ? `${clean.slice(0, MAX_LENGTH - 1)}…` : clean;
}

/** "2.4.1 (241)", or whichever of the two the build states. */
function version(shown: unknown, build: unknown): string | null {
  const a = text(shown);
  const b = text(build);
  if (a && b && a !== b) return `${a} (${b})`;
  return a ?? b;
}

const UNKNOWN: AppInfo = { name: null, version: null, packageId: null };

function androidInfo(files: Map<string, Buffer>): AppInfo {
  const manifest = files.get('AndroidManifest.xml');
  if (!manifest || manifest.length > MAX_BINARY_BYTES) return UNKNOWN;
  const parsed = parseManifestXml(manifest);
  return {
    name: text(record(parsed.application).label),
    version: version(parsed.versionName, parsed.versionCode),
    packageId: text(parsed.package),
  };
}

function iosInfo(files: Map<string, Buffer>): AppInfo {
  const plists = [...files.keys()].filter((name) => IPA_INFO_PLIST.test(name));
  if (plists.length !== 1) return UNKNOWN;
  const buf = files.get(plists[0]!)!;
  const binary = buf.subarray(0, 6).toString('latin1') === 'bplist';
  if (buf.length > (binary ? MAX_BINARY_BYTES : MAX_XML_PLIST_BYTES)) return UNKNOWN;
  const plist = parseInfoPlist(buf);
  return {
    name: text(plist.CFBundleDisplayName) ?? text(plist.CFBundleName),
    version: version(plist.CFBundleShortVersionString, plist.CFBundleVersion),
    packageId: text(plist.CFBundleIdentifier),
  };
}

/**
 * The app's name, version and id, from the manifest or Info.plist the archive check has already read within its
 * caps. The engine's parsers run here in-process as the check's reading does: their format checks
 * (binary-xml-check, binary-plist-check) refuse what would make them loop or expand before they walk anything,
 * and what is parsed is kept small (MAX_BINARY_BYTES above) so no upload holds the event loop.
 * A build whose manifest cannot be read this way is still a build (the analysis reports on it): the fields are
 * then null.
 */
export function readAppInfo(platform: UploadPlatform, files: Map<string, Buffer>): AppInfo {
  try {
    return platform === 'android' ? androidInfo(files) : iosInfo(files);
  } catch {
    return UNKNOWN;
  }
}
