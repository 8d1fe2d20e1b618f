import { describe, expect, it } from 'vitest';
import { surveyedCall } from './page-calls.ts';
import { SurveyedCall, SURVEY_LIMITS } from './survey-types.ts';

const ORIGIN = 'https://shop.example';
const noBody = () => ({ data: null });

describe('a data call as the survey keeps it', () => {
  it('keeps the method, the path and the query’s keys, never a value', () => {
    const call = surveyedCall('get', `${ORIGIN}/api/items?token=s3cr3t&page=2&page=3#x`, ORIGIN, noBody);
    expect(call).toEqual({ method: 'GET', path: '/api/items', query: ['token', 'page'], status: null, ms: null });
    expect(JSON.stringify(call)).not.toMatch(/s3cr3t|#x/);
    expect(SurveyedCall.safeParse(call).success).toBe(true);
  });

  it('keeps a JSON body’s shape only, and reads no body of a GET', () => {
    const post = surveyedCall('POST', `${ORIGIN}/api/login`, ORIGIN, () => ({ data: JSON.stringify({ email: 'a@b.c', password: 'hunter2' }), contentType: 'application/json' }));
    expect(post).toMatchObject({ method: 'POST', path: '/api/login', json: { email: 'string', password: 'string' } });
    expect(JSON.stringify(post)).not.toMatch(/hunter2|a@b\.c/);
    let read = false;
    surveyedCall('GET', `${ORIGIN}/api/me`, ORIGIN, () => {
      read = true;
      return { data: '{"x":1}' };
    });
    expect(read).toBe(false);
  });

  it('leaves out other origins, other methods and overlong paths; bounds the query’s keys', () => {
    expect(surveyedCall('GET', 'https://cdn.example/api/items', ORIGIN, noBody)).toBeNull();
    expect(surveyedCall('PROPFIND', `${ORIGIN}/dav`, ORIGIN, noBody)).toBeNull();
    expect(surveyedCall('GET', 'not a url', ORIGIN, noBody)).toBeNull();
    expect(surveyedCall('GET', `${ORIGIN}/${'a'.repeat(SURVEY_LIMITS.urlChars)}`, ORIGIN, noBody)).toBeNull();
    const many = new URLSearchParams(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v']));
    many.append('x'.repeat(200), 'v');
    many.append('', 'v');
    const call = surveyedCall('GET', `${ORIGIN}/api?${many}`, ORIGIN, noBody);
    expect(call?.query).toHaveLength(SURVEY_LIMITS.queryKeys);
    expect(SurveyedCall.safeParse(call).success).toBe(true);
  });
});
