import { AppFileError } from './app-file-error.ts';
import { ManifestXmlParser } from './app-info-parser.ts';
import type { ApkInfo } from './android.ts';
import { checkBinaryXml } from './binary-xml-check.ts';
import { type ArchiveLimits, readArchive } from './zip-archive.ts';

const MANIFEST = 'AndroidManifest.xml';
/** Permissions kept in the summary: a manifest may list thousands, the findings need the dangerous ones. */
const MAX_PERMISSIONS = 500;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/** What the findings read, and only that: the summary is stored with the run and shown in reports. */
function summarise(manifest: Record<string, unknown>): ApkInfo {
  const sdk = record(manifest.usesSdk);
  const app = record(manifest.application);
  const permissions = new Set<string>();
  for (const p of Array.isArray(manifest.usesPermissions) ? manifest.usesPermissions : []) {
    const name = str(record(p).name);
    if (name && permissions.size < MAX_PERMISSIONS) permissions.add(name);
  }
  return {
    package: str(manifest.package),
    versionName: str(manifest.versionName),
    versionCode: num(manifest.versionCode),
    usesPermissions: [...permissions].map((name) => ({ name })),
    usesSdk: { minSdkVersion: num(sdk.minSdkVersion), targetSdkVersion: num(sdk.targetSdkVersion) },
    application: {
      debuggable: bool(app.debuggable),
      allowBackup: bool(app.allowBackup),
      usesCleartextTraffic: bool(app.usesCleartextTraffic),
      networkSecurityConfig: str(app.networkSecurityConfig),
    },
  };
}

/** An AndroidManifest.xml already read into memory, as app-info-parser reads it; its chunk structure is checked first. */
export function parseManifestXml(manifest: Buffer): Record<string, unknown> {
  checkBinaryXml(manifest);
  try {
    return new ManifestXmlParser(manifest).parse();
  } catch (err) {
    throw new AppFileError('app_malformed', `the app's AndroidManifest.xml is malformed: ${(err as Error).message}`, { cause: err });
  }
}

/** Parses an AndroidManifest.xml already read into memory into what the findings read. */
export function parseManifest(manifest: Buffer): ApkInfo {
  return summarise(parseManifestXml(manifest));
}

/** The APK's manifest, read with the archive limits and parsed within bounds. */
export async function readApk(file: string, limits: ArchiveLimits, signal?: AbortSignal): Promise<ApkInfo> {
  const { files } = await readArchive(file, limits, { label: 'APK', read: (name) => name === MANIFEST, signal });
  const manifest = files.get(MANIFEST);
  if (!manifest) throw new AppFileError('app_malformed', `the APK has no ${MANIFEST}`);
  return parseManifest(manifest);
}
