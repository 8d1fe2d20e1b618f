import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { compareImages, decodePng, samePixels } from './compare.ts';

/** A white image with grey rectangles: `[x, y, width, height]`. */
function image(width: number, height: number, boxes: [number, number, number, number][] = []): Buffer {
  const data = Buffer.alloc(width * height * 4, 255);
  for (const [bx, by, bw, bh] of boxes) {
    for (let y = by; y < by + bh; y++) {
      for (let x = bx; x < bx + bw; x++) {
        const i = (y * width + x) * 4;
        data[i] = 40;
        data[i + 1] = 60;
        data[i + 2] = 90;
      }
    }
  }
  return PNG.sync.write({ width, height, data } as unknown as PNG);
}

describe('comparing a shot with its baseline', () => {
  it('finds nothing changed in the same image', () => {
    const a = image(200, 100, [[10, 10, 30, 20]]);
    const cmp = compareImages(a, image(200, 100, [[10, 10, 30, 20]]), 0.1);
    expect(cmp).toMatchObject({ changedPixels: 0, changedRatio: 0, sizeChanged: false });
    expect(cmp.region).toBeUndefined();
    expect(samePixels(a, image(200, 100, [[10, 10, 30, 20]]))).toBe(true);
  });

  it('counts a moved box and bounds the region by its old and new places', () => {
    const cmp = compareImages(image(200, 100, [[50, 40, 20, 10]]), image(200, 100, [[54, 40, 20, 10]]), 0.1);
    // The 4 columns it left and the 4 it took, 10 rows each, less a few at the corners whose colours each image has
    // beside them (what an edge moved by less than a pixel looks like).
    expect(cmp.changedPixels).toBeGreaterThanOrEqual(72);
    expect(cmp.changedPixels).toBeLessThanOrEqual(80);
    expect(cmp.changedRatio).toBe(cmp.changedPixels / 20_000);
    expect(cmp.region).toEqual({ x: 50, y: 40, width: 24, height: 10 });
    const diff = decodePng(cmp.diffPng());
    expect([diff.width, diff.height]).toEqual([200, 100]);
    const at = (x: number, y: number) => [...diff.data.subarray((y * 200 + x) * 4, (y * 200 + x) * 4 + 4)];
    expect(at(51, 45)).toEqual([255, 0, 0, 255]);
    // The region's outline, a few pixels out, and the unchanged rest faded to near white.
    expect(at(47, 45)).toEqual([255, 0, 255, 255]);
    expect(at(150, 80)[0]).toBeGreaterThan(240);
  });

  it('does not count an edge moved by less than a pixel: its pixels blend their neighbours', () => {
    const box: [number, number, number, number] = [50, 40, 20, 10];
    const shifted = decodePng(image(200, 100, [box]));
    // Half a pixel to the right: the left column half covered, the column after the right edge half covered.
    for (let y = 40; y < 50; y++) {
      for (const x of [50, 70]) {
        const i = (y * 200 + x) * 4;
        for (const [c, v] of [40, 60, 90].entries()) shifted.data[i + c] = Math.round((v + 255) / 2);
      }
    }
    const cmp = compareImages(image(200, 100, [box]), PNG.sync.write(shifted as unknown as PNG), 0.1);
    expect(cmp.changedPixels).toBe(0);
  });

  it('counts a different size as changed: the rows one image has and the other has not', () => {
    const cmp = compareImages(image(100, 50), image(100, 60), 0.1);
    expect(cmp.sizeChanged).toBe(true);
    expect(cmp.baseline).toEqual({ width: 100, height: 50 });
    expect(cmp.current).toEqual({ width: 100, height: 60 });
    expect(cmp.changedPixels).toBe(1000);
    expect(cmp.region).toEqual({ x: 0, y: 50, width: 100, height: 10 });
  });

  it('groups the changed pixels in areas: changes close together are one, changes apart are two', () => {
    // A "date" at the top whose two words changed (6 px apart), and a "counter" far below it.
    const before = image(300, 400, [[20, 10, 30, 12], [64, 10, 30, 12], [200, 350, 24, 16]]);
    const after = image(300, 400, [[20, 10, 34, 12], [60, 10, 34, 12], [200, 350, 30, 16]]);
    const cmp = compareImages(before, after, 0.1);
    expect(cmp.changedAreas()).toEqual([
      { x: 50, y: 10, width: 14, height: 12 },
      { x: 224, y: 350, width: 6, height: 16 },
    ]);
    // One rectangle holds both, as the region says.
    expect(cmp.region).toEqual({ x: 50, y: 10, width: 180, height: 356 });
    expect(compareImages(before, before, 0.1).changedAreas()).toEqual([]);
  });

  it('refuses what is not a PNG', () => {
    expect(() => compareImages(Buffer.from('not a png'), image(10, 10), 0.1)).toThrow();
  });
});
