import { z } from 'zod';

/**
 * Ours (not in the spec): what the server read from an uploaded build at upload time. Each field is null when the
 * build does not say it in a form the upload reads (an Android label kept in resources.arsc, for one).
 */
export const appInfo = z.object({
  /** The app's display name: the manifest's application label, or CFBundleDisplayName / CFBundleName. */
  name: z.string().nullable(),
  /** "2.4.1 (241)": versionName (versionCode), or CFBundleShortVersionString (CFBundleVersion). */
  version: z.string().nullable(),
  /** The Android package or the iOS bundle id. */
  packageId: z.string().nullable(),
});
export type AppInfo = z.infer<typeof appInfo>;

/** Spec section 3: the client profile, field names as the portal reads them. */
export const clientProfile = z.object({
  id: z.string(),
  website: z.string(),
  apiToken: z.string(),
  clientName: z.string(),
  androidAppPath: z.string().nullable(),
  androidAppUploaded: z.string().nullable(),
  iosAppPath: z.string().nullable(),
  iosAppUploaded: z.string().nullable(),
  /** Ours (not in the spec): the size in bytes of the current build, for the Setup page. */
  androidAppSize: z.number().int().nullable().optional(),
  iosAppSize: z.number().int().nullable().optional(),
  /** Ours: the name, version and id read from the current build, null when it was not read. */
  androidApp: appInfo.nullable().optional(),
  iosApp: appInfo.nullable().optional(),
});
export type ClientProfile = z.infer<typeof clientProfile>;

export const generateApiKeyResponse = z.object({ apiKey: z.string() });
export type GenerateApiKeyResponse = z.infer<typeof generateApiKeyResponse>;

export const uploadPlatform = z.enum(['android', 'ios']);
export type UploadPlatform = z.infer<typeof uploadPlatform>;

export const uploadResponse = z.object({
  message: z.string(),
  filePath: z.string(),
  uploadTime: z.string(),
  /** Ours (not in the spec): the uploaded file's own name and its size in bytes. */
  fileName: z.string().optional(),
  sizeBytes: z.number().int().optional(),
  /** Ours: the name, version and id read from the build (each null when it does not say). */
  app: appInfo.optional(),
});
export type UploadResponse = z.infer<typeof uploadResponse>;

export const UPLOAD_SUCCESS_MESSAGE = 'File uploaded successfully';
