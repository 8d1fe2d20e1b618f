import { Transform, type TransformCallback } from 'node:stream';

/** Bytes sent at a time: a 16 KiB slice is 0.33 s on slow 3G, fine-grained enough for the rate to be smooth. */
const SLICE_BYTES = 16 * 1024;

interface Due {
  at: number;
  run: () => void;
}

/**
 * One direction of a shaped link: a token bucket with no burst (a slice leaves when the link has had the time to
 * send it at `bps`), then `delayMs` of propagation. The write callback waits for the link, so a fast writer is
 * held back through the stream's backpressure; at most a bandwidth × delay worth of data waits in the queue.
 * One queue and one timer, so slices leave in the order they came. stream-throttle (npm), the one candidate, is
 * unmaintained since 2014 and shapes the rate only, with no delay.
 */
export class ShapedStream extends Transform {
  private linkFreeAt = 0;
  private readonly queue: Due[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly bps: number;
  private readonly delayMs: number;

  /** `bps`: bits per second; `delayMs`: what every byte waits on top of its turn on the link. */
  constructor(bps: number, delayMs = 0) {
    super();
    this.bps = bps;
    this.delayMs = delayMs;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
      const slice = chunk.subarray(at, at + SLICE_BYTES);
      this.linkFreeAt = Math.max(Date.now(), this.linkFreeAt) + (slice.length * 8 * 1000) / this.bps;
      this.enqueue(this.linkFreeAt + this.delayMs, () => this.push(slice));
    }
    this.enqueue(this.linkFreeAt, () => callback());
  }

  override _flush(callback: TransformCallback): void {
    this.enqueue(this.linkFreeAt + this.delayMs, () => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.timer) clearTimeout(this.timer);
    this.queue.length = 0;
    callback(error);
  }

  /** Entries run in time order, and in the order they came when due together. */
  private enqueue(at: number, run: () => void) {
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.at > at) i--;
    this.queue.splice(i, 0, { at, run });
    this.arm();
  }

  private arm() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.queue[0];
    if (!next || this.destroyed) return;
    this.timer = setTimeout(() => this.drain(), Math.max(0, next.at - Date.now()));
  }

  private drain() {
    this.timer = null;
    const now = Date.now();
    while (this.queue.length > 0 && this.queue[0]!.at <= now && !this.destroyed) this.queue.shift()!.run();
    this.arm();
  }
}
