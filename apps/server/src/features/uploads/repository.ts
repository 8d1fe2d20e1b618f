import type { AppInfo, UploadPlatform } from '@fullstop/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { auditEvents, clients, uploads } from '../../db/schema/index.ts';
import { setCurrentApp } from '../accounts/index.ts';

export interface AcceptedUpload {
  clientId: string;
  platform: UploadPlatform;
  /** The path the portal shows (see displayPath). */
  filePath: string;
  sizeBytes: number;
  sha256: string;
  /** What the build says of itself (app-info.ts). */
  appInfo: AppInfo;
  uploadedBy: string | null;
  uploadedAt: Date;
}

/** Records an accepted build and makes it the client's current one for its platform. */
export async function recordUpload(db: Db, upload: AcceptedUpload): Promise<void> {
  const { clientId, platform, filePath, sizeBytes, sha256, appInfo, uploadedBy, uploadedAt } = upload;
  await db.insert(uploads).values({ clientId, platform, fileName: filePath, sizeBytes, sha256, appInfo, uploadedBy });
  await setCurrentApp(db, clientId, platform, filePath, uploadedAt);
}

export interface CurrentBuild {
  sizeBytes: number;
  /** Of the file's bytes, computed as it was stored. */
  sha256: string;
  /** Null for a build uploaded before the upload read it. */
  appInfo: AppInfo | null;
}

/** The client's current build of a platform (its newest accepted upload), or null. */
export async function currentBuild(db: Db, clientId: string, platform: UploadPlatform): Promise<CurrentBuild | null> {
  const [row] = await db
    .select({ sizeBytes: uploads.sizeBytes, sha256: uploads.sha256, appInfo: uploads.appInfo })
    .from(uploads)
    .where(and(eq(uploads.clientId, clientId), eq(uploads.platform, platform)))
    .orderBy(desc(uploads.createdAt))
    .limit(1);
  return row ?? null;
}

export interface DeletedBuild {
  fileName: string;
  sizeBytes: number;
}

/**
 * Deletes the client's current build of a platform: its record, and the client no longer has a build for that
 * platform (tests that need one say so). The audit row is written in the same transaction; the caller removes
 * the file after the commit. Null when the client has no build for that platform.
 */
export async function deleteCurrentBuild(
  db: Db,
  clientId: string,
  platform: UploadPlatform,
  auditRow: { userId: string | null; address: string | null },
): Promise<DeletedBuild | null> {
  return db.transaction(async (tx) => {
    const [client] = await tx.select().from(clients).where(eq(clients.id, clientId)).for('update');
    const filePath = platform === 'android' ? client?.androidAppPath : client?.iosAppPath;
    if (!client || !filePath) return null;
    const [row] = await tx
      .select({ id: uploads.id, sizeBytes: uploads.sizeBytes })
      .from(uploads)
      .where(and(eq(uploads.clientId, clientId), eq(uploads.platform, platform)))
      .orderBy(desc(uploads.createdAt), desc(uploads.id))
      .limit(1);
    if (row) await tx.delete(uploads).where(eq(uploads.id, row.id));
    await tx
      .update(clients)
      .set(platform === 'android' ? { androidAppPath: null, androidAppUploaded: null } : { iosAppPath: null, iosAppUploaded: null })
      .where(eq(clients.id, clientId));
    const deleted = { fileName: filePath, sizeBytes: row?.sizeBytes ?? 0 };
    await tx.insert(auditEvents).values({
      type: 'upload.deleted',
      clientId,
      userId: auditRow.userId,
      address: auditRow.address,
      details: { platform, size: deleted.sizeBytes },
    });
    return deleted;
  });
}
