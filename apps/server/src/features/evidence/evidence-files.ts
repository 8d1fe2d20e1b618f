import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import type { EvidenceItem, EvidenceKind } from '@fullstop/contracts';
import { type ArtifactStore, artifactKey } from '../../lib/artifact-store/index.ts';
import type { RunTestRow } from '../runs/index.ts';
import { REPORTS_FOLDER, runTestKey } from '../../lib/run-paths.ts';
import { playwrightAttachments } from './playwright-attachments.ts';

/** One piece of evidence, with where it lies: `path` is relative to the run test's folder. */
export interface EvidenceFile extends EvidenceItem {
  path: string;
}

/** The json report and Playwright's are data the server wrote itself; past this size something is wrong. */
const MAX_JSON_BYTES = 32 * 1024 * 1024;

/** Image types a browser shows without running anything; an SVG could hold script, so it is never one. */
const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' };

/** A stable id per file of a run test: the same path always gives the same id, and it says nothing of the path. */
export const evidenceIdOf = (relPath: string) => createHash('sha256').update(relPath).digest('base64url').slice(0, 22);

/**
 * The stored object at `rel` under `prefix` (a run test's folder), or null. A recorded path is the runner's
 * word: one that is absolute or climbs with `..` is refused, and the data directory's store never follows a link
 * a test's code left in its folder to outside the store.
 */
export async function objectInside(store: ArtifactStore, prefix: string, rel: string): Promise<{ key: string; size: number } | null> {
  if (!rel || path.posix.isAbsolute(rel) || path.isAbsolute(rel)) return null;
  let key: string;
  try {
    key = artifactKey(prefix, path.posix.normalize(rel.replace(/\\/g, '/')));
  } catch {
    return null;
  }
  if (!key.startsWith(`${prefix}/`)) return null;
  // In the data directory a link the test's code left could point at another run's files: the real file must be
  // inside this run test's folder. (A remote store holds no links: publishing copies regular files only.)
  const [folder, file] = [store.localPath(prefix), store.localPath(key)];
  if (folder !== null && file !== null) {
    const [realFolder, realFile] = await Promise.all([realpath(folder).catch(() => null), realpath(file).catch(() => null)]);
    if (!realFolder || !realFile?.startsWith(realFolder + path.sep)) return null;
  }
  const found = await store.stat(key).catch(() => null);
  return found ? { key, size: found.size } : null;
}

async function readJson(store: ArtifactStore, prefix: string, rel: string): Promise<unknown> {
  const found = await objectInside(store, prefix, rel);
  if (!found || found.size > MAX_JSON_BYTES) return null;
  try {
    const stored = await store.get(found.key);
    return stored ? (JSON.parse(await text(stored.body)) as unknown) : null;
  } catch {
    return null;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

interface RecordedArtifact {
  path: string;
  kind: string;
  label: string | null;
}

interface RecordedCase {
  name: string;
  error: string | null;
  /** Paths relative to the attempt's folder, when the runner tied them to the case. */
  files: string[];
}

/** The artifacts and cases the run test's json report holds (what its runner returned). */
function recordedIn(report: unknown): { artifacts: RecordedArtifact[]; cases: RecordedCase[] } {
  if (!isRecord(report)) return { artifacts: [], cases: [] };
  const artifacts = (Array.isArray(report.artifacts) ? report.artifacts : []).flatMap((a): RecordedArtifact[] => {
    if (!isRecord(a) || !str(a.path) || !str(a.kind)) return [];
    return [{ path: a.path as string, kind: a.kind as string, label: str(a.label) }];
  });
  const summary = isRecord(report.summary) ? report.summary : {};
  const cases = (Array.isArray(summary.cases) ? summary.cases : []).flatMap((c): RecordedCase[] => {
    if (!isRecord(c) || !str(c.name)) return [];
    const files = [str(c.trace), str(c.screenshot)].filter((f): f is string => f !== null);
    return [{ name: c.name as string, error: str(c.error), files }];
  });
  return { artifacts, cases };
}

/** The type a file is served as, by its kind and extension; null when it is not evidence we serve. */
export function evidenceContentType(kind: string, relPath: string): string | null {
  const ext = path.extname(relPath).toLowerCase();
  if (kind === 'trace') return ext === '.zip' ? 'application/zip' : null;
  if (kind === 'screenshot') return IMAGE_TYPES[ext] ?? null;
  return null;
}

function kindAndType(a: RecordedArtifact): { kind: EvidenceKind; contentType: string } | null {
  const contentType = evidenceContentType(a.kind, a.path);
  return contentType && (a.kind === 'trace' || a.kind === 'screenshot') ? { kind: a.kind, contentType } : null;
}

const attemptOf = (rel: string) => {
  const match = /^attempt-(\d+)\//.exec(rel);
  return match ? Number(match[1]) : null;
};

/**
 * The traces and screenshots of a finished run test. The list is the one its runner returned, as the run
 * test's json report keeps it (paths relative to the run test's folder); the case a file belongs to comes from
 * the runner's cases when they name their files, else from Playwright's own JSON report. A path that leaves the
 * run test's folder, or a file that is gone, is left out.
 */
export async function listEvidence(store: ArtifactStore, rt: RunTestRow): Promise<EvidenceFile[]> {
  const root = runTestKey(rt.clientId, rt.runId, rt.id);
  const { artifacts, cases } = recordedIn(await readJson(store, root, `${REPORTS_FOLDER}/report.json`));
  const wanted = artifacts.flatMap((a) => {
    const typed = kindAndType(a);
    return typed ? [{ ...a, ...typed }] : [];
  });
  if (wanted.length === 0) return [];

  const caseOfFile = new Map<string, RecordedCase>();
  for (const c of cases) {
    for (const f of c.files) {
      for (const a of wanted) if (a.path === f || a.path.endsWith(`/${f}`)) caseOfFile.set(a.path, c);
    }
  }
  if (caseOfFile.size === 0) {
    const byName = new Map(cases.map((c) => [c.name, c]));
    for (const a of artifacts.filter((x) => x.kind === 'json')) {
      for (const att of playwrightAttachments(await readJson(store, root, a.path))) {
        const owner = wanted.find((w) => att.path.replace(/\\/g, '/').endsWith(`/${w.path}`));
        if (owner && !caseOfFile.has(owner.path)) caseOfFile.set(owner.path, byName.get(att.caseName) ?? { name: att.caseName, error: null, files: [] });
      }
    }
  }

  const out: EvidenceFile[] = [];
  for (const a of wanted) {
    const found = await objectInside(store, root, a.path);
    if (!found) continue;
    const owner = caseOfFile.get(a.path) ?? null;
    const noun = a.kind === 'trace' ? 'Trace' : 'Screenshot';
    out.push({
      evidenceId: evidenceIdOf(a.path),
      kind: a.kind,
      label: a.label ?? `${noun}: ${owner?.name ?? path.basename(a.path)}`,
      caseName: owner?.name ?? null,
      caseError: owner?.error ?? null,
      attempt: attemptOf(a.path),
      contentType: a.contentType,
      sizeBytes: found.size,
      path: a.path,
    });
  }
  return out;
}
