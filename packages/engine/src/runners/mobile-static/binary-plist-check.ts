import { AppFileError } from './app-file-error.ts';

/**
 * Checks a binary property list before bplist-parser reads it. That parser follows object references without
 * remembering what it has built: two arrays that each hold the next one twice make 2^n objects from n, and
 * references past the end of the file all read as object 0. This walk refuses references out of range, cycles,
 * and object graphs that would expand past the limits below, before anything is built.
 */

/** Objects and bytes the parser may build once every reference is followed (a real Info.plist: a few hundred). */
export const BPLIST_MAX_EXPANDED_OBJECTS = 200_000;
export const BPLIST_MAX_EXPANDED_BYTES = 32 * 1024 ** 2;
/** bplist-parser's own limit on the object table. */
const MAX_OBJECTS = 32_768;

function malformed(reason: string): AppFileError {
  return new AppFileError('app_malformed', `the app's Info.plist is malformed: ${reason}`);
}

function readUIntBE(buf: Buffer, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + buf[at + i]!;
  return value;
}

interface PlistObject {
  /** Bytes the parser copies for this object itself. */
  bytes: number;
  refs: number[];
}

export function checkBinaryPlist(buf: Buffer): void {
  if (buf.length < 8 + 32) throw malformed(`it is ${buf.length} bytes long, too short for a binary property list`);
  const trailer = buf.length - 32;
  const offsetSize = buf[trailer + 6]!;
  const refSize = buf[trailer + 7]!;
  const count = readUIntBE(buf, trailer + 8, 8);
  const top = readUIntBE(buf, trailer + 16, 8);
  const tableAt = readUIntBE(buf, trailer + 24, 8);
  if (offsetSize < 1 || offsetSize > 8 || refSize < 1 || refSize > 8) throw malformed(`its trailer gives offset size ${offsetSize} and reference size ${refSize}`);
  if (count < 1 || count > MAX_OBJECTS) throw malformed(`it claims ${count} objects (1 to ${MAX_OBJECTS} allowed)`);
  if (top >= count) throw malformed(`its top object ${top} is not among its ${count} objects`);
  if (tableAt < 8 || tableAt + count * offsetSize > trailer) throw malformed('its offset table lies outside the file');

  const objects: PlistObject[] = [];
  for (let i = 0; i < count; i++) {
    const at = readUIntBE(buf, tableAt + i * offsetSize, offsetSize);
    if (at < 8 || at >= tableAt) throw malformed(`object ${i} starts at byte ${at}, outside the object area`);
    objects.push(readObject(buf, at, tableAt, refSize, count, i));
  }
  checkExpansion(objects, top);
}

function readObject(buf: Buffer, at: number, end: number, refSize: number, count: number, index: number): PlistObject {
  const marker = buf[at]!;
  const type = marker >> 4;
  const info = marker & 0x0f;
  const inside = (from: number, bytes: number) => {
    if (from + bytes > end) throw malformed(`object ${index} runs past the object area`);
  };
  // A length in the marker, or 0xF and an integer object after it.
  const lengthAndStart = (): [number, number] => {
    if (info !== 0x0f) return [info, at + 1];
    inside(at + 1, 1);
    const intMarker = buf[at + 1]!;
    const intSize = 2 ** (intMarker & 0x0f);
    if (intMarker >> 4 !== 0x1 || intSize > 8) throw malformed(`object ${index} has a length that is not an integer`);
    inside(at + 2, intSize);
    return [readUIntBE(buf, at + 2, intSize), at + 2 + intSize];
  };
  const refsAt = (from: number, n: number): number[] => {
    inside(from, n * refSize);
    const refs: number[] = [];
    for (let i = 0; i < n; i++) {
      const ref = readUIntBE(buf, from + i * refSize, refSize);
      if (ref >= count) throw malformed(`object ${index} refers to object ${ref}, past the ${count} objects`);
      refs.push(ref);
    }
    return refs;
  };
  switch (type) {
    case 0x0:
      if (![0x0, 0x8, 0x9, 0xf].includes(info)) throw malformed(`object ${index} is an unknown simple value`);
      return { bytes: 1, refs: [] };
    case 0x1:
    case 0x2: {
      const size = 2 ** info;
      if (size > 16) throw malformed(`object ${index} is a number of ${size} bytes`);
      inside(at + 1, size);
      return { bytes: size, refs: [] };
    }
    case 0x3:
      inside(at + 1, 8);
      return { bytes: 8, refs: [] };
    case 0x4:
    case 0x5:
    case 0x6: {
      const [length, start] = lengthAndStart();
      const bytes = type === 0x6 ? length * 2 : length;
      inside(start, bytes);
      return { bytes, refs: [] };
    }
    case 0x8:
      inside(at + 1, info + 1);
      return { bytes: info + 1, refs: [] };
    case 0xa: {
      const [length, start] = lengthAndStart();
      return { bytes: 0, refs: refsAt(start, length) };
    }
    case 0xd: {
      const [length, start] = lengthAndStart();
      return { bytes: 0, refs: refsAt(start, 2 * length) };
    }
    default:
      throw malformed(`object ${index} is of type 0x${type.toString(16)}, which the parser does not read`);
  }
}

/** Objects and bytes the parser builds from `top`, memoised per object; refuses cycles. Iterative: no deep stack. */
function checkExpansion(objects: PlistObject[], top: number): void {
  const expanded = new Map<number, { objects: number; bytes: number }>();
  const onPath = new Set<number>();
  const stack: { index: number; next: number }[] = [{ index: top, next: 0 }];
  onPath.add(top);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const object = objects[frame.index]!;
    if (frame.next < object.refs.length) {
      const child = object.refs[frame.next++]!;
      if (expanded.has(child)) continue;
      if (onPath.has(child)) throw malformed(`object ${child} contains itself`);
      onPath.add(child);
      stack.push({ index: child, next: 0 });
      continue;
    }
    let total = { objects: 1, bytes: object.bytes };
    for (const child of object.refs) {
      const sub = expanded.get(child)!;
      total = { objects: total.objects + sub.objects, bytes: total.bytes + sub.bytes };
    }
    if (total.objects > BPLIST_MAX_EXPANDED_OBJECTS || total.bytes > BPLIST_MAX_EXPANDED_BYTES) {
      throw malformed(`its objects refer to each other so often that reading it would build more than ${BPLIST_MAX_EXPANDED_OBJECTS} objects or ${BPLIST_MAX_EXPANDED_BYTES / 1024 ** 2} MiB`);
    }
    expanded.set(frame.index, total);
    onPath.delete(frame.index);
    stack.pop();
  }
}
