import { queuePlaceWords, type QueuePlace } from '@fullstop/contracts';
import { formatDuration } from '@/lib/format-duration.ts';

/** A queued test's place in words: "2nd in line · starts in about 1 min" (the status word "Queued" comes before it). */
export function queuePlaceText(place: QueuePlace): string {
  const { line, starts } = queuePlaceWords(place, formatDuration);
  return `${line} · ${starts}`;
}
