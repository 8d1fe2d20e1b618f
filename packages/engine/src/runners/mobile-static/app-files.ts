/** What the server's upload route shares with the analysis: one set of rules for reading an app archive. */
export { AppFileError, formatBytes } from './app-file-error.ts';
export { parseManifestXml } from './read-apk.ts';
export { IPA_INFO_PLIST, IPA_PROVISION, parseInfoPlist } from './read-ipa.ts';
export { ANALYSIS_ARCHIVE_LIMITS, DEFAULT_ARCHIVE_LIMITS, readArchive, type ArchiveContents, type ArchiveLimits, type ArchiveQuery } from './zip-archive.ts';
