import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';

// Stored entries with a fixed date: the same entries always give the same bytes, at their full size.
const ENTRY = { compress: false, mtime: new Date('2024-01-01T00:00:00Z') };

/** A zip archive of the given entries, made with yazl: enough to make test APKs and IPAs. */
export function makeZip(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const archive = new ZipFile();
  for (const [name, content] of Object.entries(entries)) archive.addBuffer(Buffer.from(content), name, ENTRY);
  archive.end();
  return buffer(archive.outputStream);
}

export const fakeApk = (marker = 'v1') => makeZip({ 'AndroidManifest.xml': `<manifest ${marker}/>`, 'classes.dex': 'dex\n035', 'res/x': marker });
export const fakeIpa = (marker = 'v1') => makeZip({ 'Payload/Demo.app/Info.plist': `<plist ${marker}/>`, 'Payload/Demo.app/Demo': marker });

/** A multipart/form-data body with one file part. */
export function multipart(
  fileName: string,
  content: Buffer,
  field = 'file',
  contentType = 'application/octet-stream',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----fullstop${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The names of a zip archive's entries, in their order (read with yauzl). */
export function zipEntries(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: { fileName: string }) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}
