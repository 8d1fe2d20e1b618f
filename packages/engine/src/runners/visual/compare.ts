/**
 * A shot against its baseline (decision 0080): pixelmatch, with its anti-aliasing detection (a pixel that only
 * anti-aliasing changed is not counted), over PNGs read and written with pngjs; then a changed pixel whose colour each
 * image has within the other's 3 × 3 neighbours (an edge moved by less than a pixel: text re-rasterised a fraction of
 * a pixel away) is not counted either. Images of different sizes are compared top-left aligned: what one has and
 * the other has not counts as changed.
 */
import type { VisualRegion } from '@fullstop/contracts';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { pngSize } from '../../reporters/shrink-image.ts';

/** A changed pixel in the diff; anti-aliasing pixelmatch found (not counted) in yellow; the region's outline. */
const CHANGED: readonly [number, number, number] = [255, 0, 0];
const ANTI_ALIASED: readonly [number, number, number] = [255, 200, 0];
const OUTLINE: readonly [number, number, number] = [255, 0, 255];
/** How much of the baseline shows through in the diff's unchanged pixels, so the reader sees where the changes sit. */
const FADE = 0.15;
const OUTLINE_WIDTH = 2;
const OUTLINE_MARGIN = 3;
/** Changed pixels are grouped in square cells of this side; cells this many cells apart or less are one area. */
const AREA_CELL_PX = 8;
const AREA_GAP_CELLS = 2;
/** Changed pixels farther apart than this (two cells and a cell's width) are in different areas. */
export const AREA_GAP_PX = AREA_CELL_PX * AREA_GAP_CELLS;

export interface Decoded {
  width: number;
  height: number;
  data: Buffer;
}

export interface Comparison {
  changedPixels: number;
  /** changedPixels over the pixels of the larger size. */
  changedRatio: number;
  /** Every changed pixel lies inside; absent when none changed. */
  region?: VisualRegion;
  /** Whether the two sizes differ (then the shot changed, whatever the ratio). */
  sizeChanged: boolean;
  /**
   * The changed pixels in clusters, each bounded by a rectangle: pixels up to AREA_GAP_PX apart are one cluster
   * (a word whose letters changed), a date at the top and a counter at the bottom two. The site survey masks the
   * element under each (survey/changing-elements.ts).
   */
  changedAreas(): VisualRegion[];
  baseline: { width: number; height: number };
  current: { width: number; height: number };
  /** The diff as a PNG: changed pixels red, anti-aliasing yellow, the rest faded, the region outlined (call once). */
  diffPng(): Buffer;
}

export function decodePng(bytes: Buffer): Decoded {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, data: png.data };
}

/** The image on a canvas of `width` × `height`, top-left aligned; the rest transparent. */
function onCanvas(img: Decoded, width: number, height: number): Buffer {
  if (img.width === width && img.height === height) return img.data;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < img.height; y++) img.data.copy(out, y * width * 4, y * img.width * 4, (y + 1) * img.width * 4);
  return out;
}

const isColor = (buf: Buffer, i: number, c: readonly [number, number, number]) => buf[i] === c[0] && buf[i + 1] === c[1] && buf[i + 2] === c[2] && buf[i + 3] === 255;

function paint(buf: Buffer, i: number, c: readonly [number, number, number]): void {
  buf[i] = c[0];
  buf[i + 1] = c[1];
  buf[i + 2] = c[2];
  buf[i + 3] = 255;
}

function outline(buf: Buffer, width: number, height: number, r: VisualRegion): void {
  const x0 = Math.max(0, r.x - OUTLINE_MARGIN);
  const y0 = Math.max(0, r.y - OUTLINE_MARGIN);
  const x1 = Math.min(width - 1, r.x + r.width - 1 + OUTLINE_MARGIN);
  const y1 = Math.min(height - 1, r.y + r.height - 1 + OUTLINE_MARGIN);
  for (let t = 0; t < OUTLINE_WIDTH; t++) {
    for (let x = x0; x <= x1; x++) {
      if (y0 + t <= y1) paint(buf, ((y0 + t) * width + x) * 4, OUTLINE);
      if (y1 - t >= y0) paint(buf, ((y1 - t) * width + x) * 4, OUTLINE);
    }
    for (let y = y0; y <= y1; y++) {
      if (x0 + t <= x1) paint(buf, (y * width + x0 + t) * 4, OUTLINE);
      if (x1 - t >= x0) paint(buf, (y * width + x1 - t) * 4, OUTLINE);
    }
  }
}

/** Per channel, how far outside its neighbours' range a pixel may be and still be a shifted edge (rounding). */
const SHIFT_SLACK = 8;

/**
 * Whether the pixel of `src` at (x, y) lies, channel by channel, within the range of `dst`'s pixels around it (3 × 3):
 * what an edge moved by less than a pixel looks like, its colour a blend of its neighbours'.
 */
function withinNeighbours(src: Buffer, dst: Buffer, width: number, height: number, x: number, y: number): boolean {
  const i = (y * width + x) * 4;
  for (let c = 0; c < 3; c++) {
    let min = 255;
    let max = 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const v = dst[(ny * width + nx) * 4 + c]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    const v = src[i + c]!;
    if (v < min - SHIFT_SLACK || v > max + SHIFT_SLACK) return false;
  }
  return true;
}

/**
 * Compares two PNGs. `colorThreshold` is pixelmatch's `threshold`: how far two colours may be apart (their OKLab
 * distance, 1 being black against white) and still be the same pixel. Throws when either is not a PNG pngjs reads.
 */
export function compareImages(baselinePng: Buffer, currentPng: Buffer, colorThreshold: number): Comparison {
  // The same bytes are the same pixels: no need to decode (two desktop shots take pngjs ~0.2 s).
  const size = baselinePng.equals(currentPng) ? pngSize(currentPng) : null;
  if (size) return { changedPixels: 0, changedRatio: 0, sizeChanged: false, baseline: size, current: size, changedAreas: () => [], diffPng: () => decodeAndCompare(baselinePng, currentPng, colorThreshold).diffPng() };
  return decodeAndCompare(baselinePng, currentPng, colorThreshold);
}

function decodeAndCompare(baselinePng: Buffer, currentPng: Buffer, colorThreshold: number): Comparison {
  const baseline = decodePng(baselinePng);
  const current = decodePng(currentPng);
  const width = Math.max(baseline.width, current.width);
  const height = Math.max(baseline.height, current.height);
  const a = onCanvas(baseline, width, height);
  const b = onCanvas(current, width, height);
  // pixelmatch draws the diff: changed pixels red, anti-aliased ones yellow (not counted), the rest the baseline faded.
  const diff = Buffer.alloc(width * height * 4);
  pixelmatch(a, b, diff, width, height, { threshold: colorThreshold, includeAA: false, alpha: FADE, diffColor: [...CHANGED], aaColor: [...ANTI_ALIASED] });
  const overlapWidth = Math.min(baseline.width, current.width);
  const overlapHeight = Math.min(baseline.height, current.height);
  let changedPixels = 0;
  const cells = new ChangedCells(width, height);
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      // Outside the overlap one image has a pixel and the other none: changed, whatever pixelmatch saw there.
      const outside = x >= overlapWidth || y >= overlapHeight;
      // A faded pixel is grey and a yellow one is not red: red is pixelmatch's changed pixel only. One that each
      // image has within the other's neighbours is an edge moved by less than a pixel: anti-aliasing too.
      if (!outside && isColor(diff, i, CHANGED) && withinNeighbours(b, a, width, height, x, y) && withinNeighbours(a, b, width, height, x, y)) {
        paint(diff, i, ANTI_ALIASED);
        continue;
      }
      if (outside || isColor(diff, i, CHANGED)) {
        if (outside) paint(diff, i, CHANGED);
        changedPixels++;
        cells.add(x, y);
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  const region = maxX >= 0 ? { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } : undefined;
  return {
    changedPixels,
    changedRatio: changedPixels / (width * height),
    ...(region ? { region } : {}),
    sizeChanged: baseline.width !== current.width || baseline.height !== current.height,
    baseline: { width: baseline.width, height: baseline.height },
    current: { width: current.width, height: current.height },
    changedAreas: () => cells.areas(),
    diffPng: () => {
      if (region) outline(diff, width, height, region);
      return PNG.sync.write({ width, height, data: diff } as unknown as PNG);
    },
  };
}

/** Where the changed pixels are: per AREA_CELL_PX cell, the rectangle of its changed pixels (none: -1). */
class ChangedCells {
  private readonly columns: number;
  private readonly rows: number;
  /** Per cell: min x, min y, max x, max y of its changed pixels; min x -1 when it has none. */
  private readonly bounds: Int32Array;

  constructor(width: number, height: number) {
    this.columns = Math.ceil(width / AREA_CELL_PX);
    this.rows = Math.ceil(height / AREA_CELL_PX);
    this.bounds = new Int32Array(this.columns * this.rows * 4).fill(-1);
  }

  add(x: number, y: number): void {
    const b = ((Math.floor(y / AREA_CELL_PX) * this.columns) + Math.floor(x / AREA_CELL_PX)) * 4;
    const bounds = this.bounds;
    if (bounds[b] === -1) {
      bounds.set([x, y, x, y], b);
      return;
    }
    if (x < bounds[b]!) bounds[b] = x;
    if (y < bounds[b + 1]!) bounds[b + 1] = y;
    if (x > bounds[b + 2]!) bounds[b + 2] = x;
    if (y > bounds[b + 3]!) bounds[b + 3] = y;
  }

  /** Cells with changes, joined when AREA_GAP_CELLS apart or closer (a flood over the grid), as rectangles, top to bottom. */
  areas(): VisualRegion[] {
    const { columns, rows, bounds } = this;
    const seen = new Uint8Array(columns * rows);
    const out: VisualRegion[] = [];
    for (let start = 0; start < columns * rows; start++) {
      if (seen[start] || bounds[start * 4] === -1) continue;
      seen[start] = 1;
      const stack = [start];
      let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
      while (stack.length) {
        const c = stack.pop()!;
        x0 = Math.min(x0, bounds[c * 4]!);
        y0 = Math.min(y0, bounds[c * 4 + 1]!);
        x1 = Math.max(x1, bounds[c * 4 + 2]!);
        y1 = Math.max(y1, bounds[c * 4 + 3]!);
        const cx = c % columns;
        const cy = Math.floor(c / columns);
        for (let ny = Math.max(0, cy - AREA_GAP_CELLS); ny <= Math.min(rows - 1, cy + AREA_GAP_CELLS); ny++) {
          for (let nx = Math.max(0, cx - AREA_GAP_CELLS); nx <= Math.min(columns - 1, cx + AREA_GAP_CELLS); nx++) {
            const n = ny * columns + nx;
            if (seen[n] || bounds[n * 4] === -1) continue;
            seen[n] = 1;
            stack.push(n);
          }
        }
      }
      out.push({ x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 });
    }
    return out;
  }
}

/** Whether two PNGs show the same pixels: the same bytes, or the same size and data once decoded. */
export function samePixels(a: Buffer, b: Buffer): boolean {
  if (a.equals(b)) return true;
  const x = decodePng(a);
  const y = decodePng(b);
  return x.width === y.width && x.height === y.height && x.data.equals(y.data);
}
