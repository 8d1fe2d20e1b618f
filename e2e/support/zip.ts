import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';

// Stored entries with a fixed date: the same entries always give the same bytes, at their full size.
const ENTRY = { compress: false, mtime: new Date('2024-01-01T00:00:00Z') };

/** A zip archive of the given entries, made with yazl. */
export function zip(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const archive = new ZipFile();
  for (const [name, content] of Object.entries(entries)) archive.addBuffer(Buffer.from(content), name, ENTRY);
  archive.end();
  return buffer(archive.outputStream);
}

/** The smallest APK the server accepts: a zip with AndroidManifest.xml and classes.dex. */
export function tinyApk(): Promise<Buffer> {
  return zip({
    'AndroidManifest.xml': '<manifest package="test.fullstop.app"/>',
    'classes.dex': Buffer.from('dex\n035\0'),
  });
}
