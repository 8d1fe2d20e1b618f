import { z } from 'zod';

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
});
export type UploadResponse = z.infer<typeof uploadResponse>;

export const UPLOAD_SUCCESS_MESSAGE = 'File uploaded successfully';
