import { z } from 'zod';

/** Every error the API answers has this shape: a human-readable message, a stable code, and the field at fault. */
export const errorResponse = z.object({
  message: z.string(),
  code: z.string().optional(),
  field: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** A plain acknowledgement, e.g. the clearCache calls. */
export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const idParam = z.object({ id: z.string().min(1).max(64) });
