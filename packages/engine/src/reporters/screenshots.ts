/**
 * Screenshots inline in the html report, as data: URIs (the report's CSP allows those and nothing else).
 * Shrunk to JPEG with sharp so a run with many failures stays small; a screenshot that cannot be shrunk is kept
 * as it is when small, else named and left to the zip.
 */
import { readInsideAttempt } from '../lib/attempt-file.ts';
import { reportOf } from '../runners/reports.ts';
import { shrinkImage } from './shrink-image.ts';
import type { RunReport } from './types.ts';

const MAX_IMAGES = 40;
/** All images of one report together, encoded. */
const MAX_TOTAL_BYTES = 1_600_000;
/** Kept as they are when they cannot be shrunk (not a PNG, or one libvips cannot read). */
const MAX_RAW_BYTES = 150_000;
/** A screenshot larger than this is not read at all (a full page of a tall site is a few MB). */
const SCREENSHOT_MAX_BYTES = 32 * 1024 * 1024;

/** Loose screenshots sit in a grid of narrow columns: smaller images do. */
const THUMB_BOX = { maxWidth: 520, maxHeight: 900 };

/**
 * Screenshot paths to inline, in order of need: those of failed cases (shown in full), then the runner's loose
 * ones (in a grid), then, where the kind's report shows them (a mobile UI test's step after step), the other cases'
 * (in a grid). Elsewhere a passed case's screenshot is not shown, so it is not read.
 */
function wanted(r: RunReport): { path: string; thumb: boolean }[] {
  const out: { path: string; thumb: boolean }[] = [];
  const cases = (r.summary && 'cases' in r.summary ? r.summary.cases : undefined) ?? [];
  for (const c of cases) if (c.screenshot && c.status === 'failed') out.push({ path: c.screenshot, thumb: false });
  const tied = cases.map((c) => c.screenshot).filter((p): p is string => !!p);
  for (const a of r.artifacts) {
    if (a.kind === 'screenshot' && !tied.some((t) => a.path === t || a.path.endsWith(`/${t}`))) out.push({ path: a.path, thumb: true });
  }
  if (r.summary && reportOf(r.summary)?.passingScreenshots) {
    for (const c of cases) if (c.screenshot && c.status !== 'failed') out.push({ path: c.screenshot, thumb: true });
  }
  return out.filter((w, i) => out.findIndex((o) => o.path === w.path) === i);
}

/** A case's path as the runner wrote it may lack the attempt folder the server adds to artifacts. */
function candidates(r: RunReport, p: string): string[] {
  return [p, ...r.artifacts.filter((a) => a.path.endsWith(`/${p}`)).map((a) => a.path)];
}

/** A screenshot the runner wrote: inside its folder, no link, a regular file, a size cap (lib/attempt-file.ts). */
const readInside = (runDir: string, rel: string): Promise<Buffer | null> => readInsideAttempt(runDir, rel, { maxBytes: SCREENSHOT_MAX_BYTES });

/** Screenshots shrunk at once: sharp decodes and encodes on libuv's threads, off the event loop. */
const CONCURRENCY = 4;

async function encode(r: RunReport, runDir: string, { path: p, thumb }: { path: string; thumb: boolean }): Promise<string | null> {
  let bytes: Buffer | null = null;
  for (const c of candidates(r, p)) if ((bytes = await readInside(runDir, c))) break;
  if (!bytes) return null;
  const shrunk = await shrinkImage(bytes, thumb ? THUMB_BOX : undefined).catch(() => null);
  if (shrunk) return `data:image/jpeg;base64,${shrunk.toString('base64')}`;
  if (bytes.length > MAX_RAW_BYTES) return null;
  return `data:${/\.jpe?g$/i.test(p) ? 'image/jpeg' : 'image/png'};base64,${bytes.toString('base64')}`;
}

export async function collectImages(r: RunReport, runDir: string): Promise<Map<string, string>> {
  const paths = wanted(r).slice(0, MAX_IMAGES);
  const uris: (string | null)[] = new Array(paths.length).fill(null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < paths.length; i = next++) uris[i] = await encode(r, runDir, paths[i]!);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  // Failures' screenshots come first, so when the budget runs out it is a passing case's that is left out.
  const images = new Map<string, string>();
  let total = 0;
  paths.forEach(({ path: p }, i) => {
    const uri = uris[i];
    if (!uri || total + uri.length > MAX_TOTAL_BYTES) return;
    total += uri.length;
    images.set(p, uri);
  });
  return images;
}
