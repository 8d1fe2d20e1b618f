import { AppFileError } from './app-file-error.ts';

/**
 * Checks the chunk structure of Android's binary XML before app-info-parser walks it. That parser moves its
 * cursor by what each chunk claims: a chunk claiming a size of 0 sends it back to the same offset forever, and a
 * string pool whose offsets all point at one long string makes it copy that string millions of times. This walk
 * follows the same path as the parser (root header, then chunks from byte 8 to the end of the buffer) and refuses
 * anything that would make it loop, read out of bounds or decode more string bytes than the pool holds.
 */

const CHUNK = {
  NULL: 0x0000,
  STRING_POOL: 0x0001,
  XML: 0x0003,
  START_NAMESPACE: 0x0100,
  END_NAMESPACE: 0x0101,
  START_ELEMENT: 0x0102,
  END_ELEMENT: 0x0103,
  CDATA: 0x0104,
  RESOURCE_MAP: 0x0180,
} as const;

const HEADER = 8;
/** What the parser reads after the 8-byte header of each chunk type, at least. */
const MIN_BODY: Record<number, number> = {
  [CHUNK.NULL]: 0,
  [CHUNK.STRING_POOL]: 20,
  [CHUNK.START_NAMESPACE]: 16,
  [CHUNK.END_NAMESPACE]: 16,
  [CHUNK.START_ELEMENT]: 28,
  [CHUNK.END_ELEMENT]: 16,
  [CHUNK.CDATA]: 20,
  [CHUNK.RESOURCE_MAP]: 0,
};
const UTF8_FLAG = 1 << 8;

function malformed(reason: string): AppFileError {
  return new AppFileError('app_malformed', `the app's AndroidManifest.xml is malformed: ${reason}`);
}

const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;

/** A string's length prefix (UTF-8: 1 or 2 bytes; UTF-16: 2 or 4 bytes). Returns the value and the next offset. */
function lengthAt(buf: Buffer, at: number, end: number, utf8: boolean): [number, number] {
  if (utf8) {
    if (at + 1 > end) throw malformed(`a string's length at byte ${at} lies past its string pool`);
    const first = buf[at]!;
    if (!(first & 0x80)) return [first, at + 1];
    if (at + 2 > end) throw malformed(`a string's length at byte ${at} lies past its string pool`);
    return [((first & 0x7f) << 8) | buf[at + 1]!, at + 2];
  }
  if (at + 2 > end) throw malformed(`a string's length at byte ${at} lies past its string pool`);
  const first = buf.readUInt16LE(at);
  if (!(first & 0x8000)) return [first, at + 2];
  if (at + 4 > end) throw malformed(`a string's length at byte ${at} lies past its string pool`);
  return [(first & 0x7fff) * 0x10000 + buf.readUInt16LE(at + 2), at + 4];
}

function checkStringPool(buf: Buffer, start: number, size: number): void {
  const end = start + size;
  const count = buf.readUInt32LE(start + 8);
  const flags = buf.readUInt32LE(start + 16);
  const stringsStart = buf.readUInt32LE(start + 20);
  const utf8 = (flags & UTF8_FLAG) !== 0;
  // The parser reads the offsets right after the pool's 28-byte header, one u32 per string.
  if (28 + 4 * count > size) throw malformed(`the string pool at byte ${start} claims ${count} strings, more than its ${size} bytes can index`);
  if (count > 0 && stringsStart >= size) throw malformed(`the string pool at byte ${start} puts its strings at ${stringsStart}, past its end`);
  let decoded = 0;
  for (let i = 0; i < count; i++) {
    const at = start + stringsStart + buf.readUInt32LE(start + 28 + 4 * i);
    if (at >= end) throw malformed(`string ${i} of the pool at byte ${start} starts past the pool's end`);
    let bytes: number;
    let next: number;
    if (utf8) {
      [, next] = lengthAt(buf, at, end, true); // length in characters, unused by the parser
      [bytes, next] = lengthAt(buf, next, end, true);
    } else {
      let chars: number;
      [chars, next] = lengthAt(buf, at, end, false);
      bytes = chars * 2;
    }
    if (next + bytes > end) throw malformed(`string ${i} of the pool at byte ${start} runs past the pool's end`);
    // Real pools store each string once: strings claiming more bytes than the pool holds overlap on purpose.
    decoded += bytes;
    if (decoded > size) throw malformed(`the strings of the pool at byte ${start} claim more bytes than the pool holds`);
  }
}

function checkElement(start: number, size: number, buf: Buffer): void {
  const end = start + size;
  const attrCount = buf.readUInt16LE(start + 28);
  // Each attribute: namespace, name and raw value refs, then a typed value whose own size field moves the cursor.
  let at = start + HEADER + 28;
  for (let i = 0; i < attrCount; i++) {
    if (at + 20 > end) throw malformed(`the element at byte ${start} claims ${attrCount} attributes, more than its ${size} bytes hold`);
    // The parser reads 8 bytes of typed value, then moves to its claimed end (0 counts as 8): always forward.
    at += 12 + (buf.readUInt16LE(at + 12) || 8);
  }
}

export function checkBinaryXml(buf: Buffer): void {
  if (buf.length < HEADER) throw malformed(`it is ${buf.length} bytes long, too short for a binary XML header`);
  const rootType = buf.readUInt16LE(0);
  if (rootType !== CHUNK.XML) throw malformed(`it does not start with a binary XML header (type ${hex(rootType)}, expected ${hex(CHUNK.XML)})`);
  let at = HEADER;
  let chunks = 0;
  while (at < buf.length) {
    if (at + HEADER > buf.length) throw malformed(`${buf.length - at} stray bytes at byte ${at}, too few for a chunk header`);
    const type = buf.readUInt16LE(at);
    const headerSize = buf.readUInt16LE(at + 2);
    const size = buf.readUInt32LE(at + 4);
    const what = `the chunk at byte ${at} (type ${hex(type)})`;
    if (size === 0) throw malformed(`${what} claims a size of 0`);
    if (headerSize < HEADER) throw malformed(`${what} claims a header of ${headerSize} bytes, less than 8`);
    if (size < headerSize) throw malformed(`${what} claims a size of ${size}, smaller than its ${headerSize}-byte header`);
    if (at + size > buf.length) throw malformed(`${what} claims a size of ${size}, past the end of the file (${buf.length} bytes)`);
    const minBody = MIN_BODY[type];
    if (minBody === undefined) throw malformed(`${what} is of a type binary XML does not have`);
    if (size < HEADER + minBody) throw malformed(`${what} claims a size of ${size}, too small for its contents`);
    if (type === CHUNK.STRING_POOL) checkStringPool(buf, at, size);
    if (type === CHUNK.START_ELEMENT) checkElement(at, size, buf);
    at += size;
    chunks += 1;
  }
  if (chunks === 0) throw malformed('it has no chunks after its header');
}
