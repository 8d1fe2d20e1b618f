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

/** Ids are server-made (UUIDs); anything else is refused before it reaches the database. */
export const idString = z
  .string({ error: 'id is required' })
  .min(1, { error: 'id is required' })
  .max(64, { error: 'id must be at most 64 characters' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'id may contain only letters, digits, "-" and "_"' });

export const idParam = z.object({ id: idString });

/** Whose a row is, where operators see every client's rows in one list. */
export const clientRef = z.object({ clientId: z.string(), clientName: z.string() });

/** Where a page of a long list stands: how many there are in all, this page's number (from 1) and its size. */
export const pageCounts = z.object({
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
