import { z } from 'zod';

// What every outbound delivery (alerts, tracker exports, …) tells of itself: its state in the server's outbox and
// what the far end last answered.

export const deliveryState = z.object({
  /** pending (a retry is due), delivered, failed (gave up). */
  status: z.enum(['pending', 'delivered', 'failed']),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
});
export type DeliveryState = z.infer<typeof deliveryState>;

/** "Send a test now": whether it arrived, and what the far end answered. */
export const testDeliveryResponse = z.object({ delivered: z.boolean(), statusCode: z.number().int().nullable(), message: z.string() });
export type TestDeliveryResponse = z.infer<typeof testDeliveryResponse>;
