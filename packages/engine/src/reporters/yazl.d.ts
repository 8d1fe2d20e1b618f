// yazl ships no types; this declares the little of it the zip reporter uses.
declare module 'yazl' {
  import type { Readable } from 'node:stream';
  export class ZipFile {
    outputStream: Readable;
    addFile(realPath: string, metadataPath: string, options?: { compress?: boolean }): void;
    addBuffer(buffer: Buffer, metadataPath: string, options?: { compress?: boolean }): void;
    end(): void;
  }
  const yazl: { ZipFile: typeof ZipFile };
  export default yazl;
}
