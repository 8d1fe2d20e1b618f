import type { QueuePlace } from './tests.ts';

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st ... */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/**
 * An estimate rounded as a person would say it (it is one): under a minute to 10 s, under an hour to the minute,
 * then to 5 minutes. 0 when it should start any moment.
 */
export function roundedWaitSeconds(seconds: number): number {
  if (seconds < 5) return 0;
  if (seconds < 55) return Math.max(10, Math.round(seconds / 10) * 10);
  if (seconds < 3600) return Math.max(60, Math.round(seconds / 60) * 60);
  return Math.round(seconds / 300) * 300;
}

/** "2nd in line" and, with a duration formatter, "starts in about 1 min" ("starts any moment" at the head). */
export function queuePlaceWords(place: QueuePlace, duration: (ms: number) => string): { line: string; starts: string } {
  const wait = roundedWaitSeconds(place.startsInSeconds);
  return {
    line: place.position === 1 ? 'next in line' : `${ordinal(place.position)} in line`,
    starts: wait === 0 ? 'starts any moment' : `starts in about ${duration(wait * 1000)}`,
  };
}
