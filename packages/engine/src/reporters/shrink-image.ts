/**
 * Screenshots shrunk to JPEG with sharp (libvips, shipped prebuilt in its @img/* packages): no browser is
 * launched to write a report. sharp is loaded on the first screenshot, so a process that writes no report with
 * screenshots never maps libvips.
 */
import type { Sharp } from 'sharp';

/** Screenshots are shown at most this wide and tall (in CSS pixels) and stored as JPEG of this quality. */
export const SHOT_MAX_WIDTH = 800;
export const SHOT_MAX_HEIGHT = 1400;
const SHOT_JPEG_QUALITY = 60;
/**
 * A full-page screenshot of a very long page is 1280 x 40 000; past this many pixels a PNG is not decoded (a
 * runner's folder is the client's code's to write in: a decompression bomb stays a small file in the zip).
 */
const MAX_INPUT_PIXELS = 64_000_000;

export interface ShrinkBox {
  maxWidth: number;
  maxHeight: number;
}

/** Width and height from a PNG's header, or null when it is not a PNG. */
export function pngSize(buf: Buffer): { width: number; height: number } | null {
  const signature = '89504e470d0a1a0a';
  if (buf.length < 24 || buf.subarray(0, 8).toString('hex') !== signature || buf.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

type SharpFactory = (input: Buffer, options: { limitInputPixels: number; sequentialRead: boolean }) => Sharp;
let loaded: Promise<SharpFactory> | null = null;

function loadSharp(): Promise<SharpFactory> {
  return (loaded ??= import('sharp').then(({ default: sharp }) => {
    // A report's images are each decoded once: libvips' cache would only hold memory in a long-lived server.
    sharp.cache(false);
    // Screenshots are shrunk several at once (screenshots.ts): one libvips thread each keeps to the cores.
    sharp.concurrency(1);
    return sharp;
  }));
}

/**
 * PNG in, a smaller JPEG out: scaled to fit `box.maxWidth`, cut at `box.maxHeight` (the top of the page, where a
 * failure's context is), transparency on white. Null when the bytes are not a PNG; rejects when libvips cannot
 * read them (the caller keeps or names the file instead).
 */
export async function shrinkImage(png: Buffer, box: ShrinkBox = { maxWidth: SHOT_MAX_WIDTH, maxHeight: SHOT_MAX_HEIGHT }): Promise<Buffer | null> {
  const size = pngSize(png);
  if (!size || size.width * size.height > MAX_INPUT_PIXELS) return null;
  const scale = Math.min(1, box.maxWidth / size.width);
  const width = Math.max(1, Math.round(size.width * scale));
  const height = Math.max(1, Math.min(box.maxHeight, Math.round(size.height * scale)));
  const sharp = await loadSharp();
  return sharp(png, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true })
    .resize({ width, height, fit: 'cover', position: 'top' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: SHOT_JPEG_QUALITY })
    .toBuffer();
}
