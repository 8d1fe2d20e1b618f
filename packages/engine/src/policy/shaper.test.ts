import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { ShapedStream } from './shaper.ts';

/** Sends `bytes` through a shaped link; the seconds it took and what came out. */
async function through(link: ShapedStream, bytes: number, chunk = 64 * 1024) {
  const input = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) input[i] = i % 251;
  const out: Buffer[] = [];
  const start = performance.now();
  await pipeline(
    Readable.from((function* () {
      for (let at = 0; at < bytes; at += chunk) yield input.subarray(at, at + chunk);
    })()),
    link,
    new Writable({
      write(c: Buffer, _e, cb) {
        out.push(c);
        cb();
      },
    }),
  );
  return { seconds: (performance.now() - start) / 1000, output: Buffer.concat(out), input };
}

describe('the shaped link', () => {
  it('holds its rate within 20%, and keeps every byte in order', async () => {
    // 512 KiB at 4 Mbit/s: 1.05 s.
    const { seconds, output, input } = await through(new ShapedStream(4_000_000), 512 * 1024);
    const expected = (512 * 1024 * 8) / 4_000_000;
    expect(seconds).toBeGreaterThan(expected * 0.8);
    expect(seconds).toBeLessThan(expected * 1.2);
    expect(output.equals(input)).toBe(true);
  });

  it('adds its delay once, not per slice', async () => {
    // 64 KiB at 8 Mbit/s is 66 ms; with 300 ms of delay, about 366 ms (per slice it would be 1.2 s).
    const { seconds } = await through(new ShapedStream(8_000_000, 300), 64 * 1024, 4096);
    expect(seconds).toBeGreaterThan(0.3);
    expect(seconds).toBeLessThan(0.6);
  });
});
