import type { AppInfo, UploadPlatform } from '@fullstop/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { uploads } from '../../db/schema/index.ts';
import { setCurrentApp } from '../accounts/repository.ts';

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
  /** Null for a build uploaded before the upload read it. */
  appInfo: AppInfo | null;
}

/** The client's current build of a platform (its newest accepted upload), or null. */
export async function currentBuild(db: Db, clientId: string, platform: UploadPlatform): Promise<CurrentBuild | null> {
  const [row] = await db
    .select({ sizeBytes: uploads.sizeBytes, appInfo: uploads.appInfo })
    .from(uploads)
    .where(and(eq(uploads.clientId, clientId), eq(uploads.platform, platform)))
    .orderBy(desc(uploads.createdAt))
    .limit(1);
  return row ?? null;
}
