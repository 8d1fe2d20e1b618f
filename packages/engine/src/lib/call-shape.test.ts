import { describe, expect, it } from 'vitest';
import { harmlessBody, jsonShapeOf, MAX_SHAPE_KEYS } from './call-shape.ts';

describe("a call's JSON shape", () => {
  it('keeps the keys and the types of the values, never a value', () => {
    const shape = jsonShapeOf(JSON.stringify({ email: 'a@b.c', password: 'hunter2', remember: true, age: 3, tags: ['x'], profile: { token: 's3cret' }, none: null }), 'application/json');
    expect(shape).toEqual({ email: 'string', password: 'string', remember: 'boolean', age: 'number', tags: 'array', profile: 'object', none: 'null' });
    expect(JSON.stringify(shape)).not.toMatch(/hunter2|s3cret|a@b\.c/);
  });

  it('reads only a JSON object, bounded', () => {
    expect(jsonShapeOf('a=1&b=2', 'application/x-www-form-urlencoded')).toBeNull();
    expect(jsonShapeOf('[1,2]', 'application/json')).toBeNull();
    expect(jsonShapeOf('{not json', 'application/json')).toBeNull();
    expect(jsonShapeOf('{}', 'application/json')).toBeNull();
    expect(jsonShapeOf(null, 'application/json')).toBeNull();
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(jsonShapeOf(JSON.stringify(many), 'application/json') ?? {})).toHaveLength(MAX_SHAPE_KEYS);
    expect(jsonShapeOf(JSON.stringify({ ['x'.repeat(200)]: 1, ok: 1 }), 'application/json')).toEqual({ ok: 'number' });
  });

  it('makes a harmless body of a shape', () => {
    expect(harmlessBody({ email: 'string', password: 'string', name: 'string', n: 'number', on: 'boolean', list: 'array', o: 'object', z: 'null' })).toEqual({
      email: 'fullstop.scan@example.com',
      password: 'Fullstop-scan-1!',
      name: 'fullstop',
      n: 1,
      on: true,
      list: [],
      o: {},
      z: null,
    });
  });
});
