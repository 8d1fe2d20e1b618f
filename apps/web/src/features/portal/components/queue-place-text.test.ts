import { describe, expect, it } from 'vitest';
import { queuePlaceText } from './queue-place-text.ts';

describe('a queued test’s place in words', () => {
  it('says its place and a rounded estimate, as a person would', () => {
    expect(queuePlaceText({ position: 1, startsInSeconds: 0 })).toBe('next in line · starts any moment');
    expect(queuePlaceText({ position: 2, startsInSeconds: 62 })).toBe('2nd in line · starts in about 1 min');
    expect(queuePlaceText({ position: 3, startsInSeconds: 38 })).toBe('3rd in line · starts in about 40 s');
    expect(queuePlaceText({ position: 11, startsInSeconds: 7 })).toBe('11th in line · starts in about 10 s');
    expect(queuePlaceText({ position: 22, startsInSeconds: 1000 })).toBe('22nd in line · starts in about 17 min');
    expect(queuePlaceText({ position: 101, startsInSeconds: 4000 })).toBe('101st in line · starts in about 1 h 5 min');
  });
});
