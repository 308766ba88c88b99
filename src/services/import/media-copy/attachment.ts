import { z } from 'zod';

/** One attachment as the import's execute result lists it (`media.attachments`). */
export const attachmentSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  sourceId: z.union([z.string().max(64), z.number().int().nonnegative()]).optional(),
  title: z.string().max(1000).optional(),
  alt: z.string().max(2000).optional(),
  caption: z.string().max(5000).optional(),
  /** Name for the library item; default: the last segment of the URL. */
  filename: z.string().max(255).optional(),
});

export type Attachment = z.infer<typeof attachmentSchema>;
