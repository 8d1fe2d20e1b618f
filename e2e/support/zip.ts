import { buffer } from 'node:stream/consumers';
import { expect } from '@playwright/test';
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

/** Entry names of a zip (central directory), enough to check an archive is whole and holds what it should. */
export function zipEntryNames(buf: Buffer): string[] {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd, 'end of central directory').toBeGreaterThan(0);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = buf.readUInt16LE(at + 28);
    names.push(buf.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return names;
}
