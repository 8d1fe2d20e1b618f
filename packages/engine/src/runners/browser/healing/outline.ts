import { PNG } from 'pngjs';

const OUTLINE_PX = 3;
const OUTLINE_RGB = [230, 0, 122] as const;

/**
 * The page's screenshot with a box drawn around the healed element, in Node: the page itself is not touched (an
 * overlay added to a client's page could change what its scripts see).
 */
export function outlined(png: Buffer, box: { x: number; y: number; width: number; height: number }): Buffer {
  const image = PNG.sync.read(png);
  const { width, height, data } = image;
  const left = Math.round(box.x) - OUTLINE_PX;
  const top = Math.round(box.y) - OUTLINE_PX;
  const right = Math.round(box.x + box.width) + OUTLINE_PX - 1;
  const bottom = Math.round(box.y + box.height) + OUTLINE_PX - 1;
  const paint = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * 4;
    data[i] = OUTLINE_RGB[0];
    data[i + 1] = OUTLINE_RGB[1];
    data[i + 2] = OUTLINE_RGB[2];
    data[i + 3] = 255;
  };
  for (let t = 0; t < OUTLINE_PX; t++) {
    for (let x = left; x <= right; x++) {
      paint(x, top + t);
      paint(x, bottom - t);
    }
    for (let y = top; y <= bottom; y++) {
      paint(left + t, y);
      paint(right - t, y);
    }
  }
  return PNG.sync.write(image);
}
