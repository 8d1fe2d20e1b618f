import { requestApiPath, type RequestAttachment } from '@fullstop/contracts';
import { downloadBlob } from '@/lib/download-blob.ts';
import { http } from '@/lib/http-client.ts';

/** Where a request's files are, for the client (`operator` false) or the console. */
export interface RequestRef {
  id: string;
  operator: boolean;
}

/** Sends one file (multipart, field "file") to a request, or to a reply with `messageId`. */
export async function uploadRequestFile(ref: RequestRef, file: File, messageId: string | null): Promise<RequestAttachment> {
  const form = new FormData();
  form.append('file', file, file.name);
  const query = messageId ? `?messageId=${encodeURIComponent(messageId)}` : '';
  return http.upload<RequestAttachment>(`${requestApiPath(ref.id, ref.operator)}/attachments${query}`, form);
}

/** Fetches a file with the session's credentials and hands it to the browser as a download. */
export async function downloadRequestFile(ref: RequestRef, attachment: RequestAttachment): Promise<void> {
  const blob = await http.request<Blob>(`${requestApiPath(ref.id, ref.operator)}/attachments/${encodeURIComponent(attachment.id)}`, { responseType: 'blob' });
  downloadBlob(blob, attachment.name);
}
