import { describe, expect, it } from 'vitest';
import { failedField, sentence } from './team-texts.ts';

describe('sentence', () => {
  it('capitalises and ends a schema message once', () => {
    expect(sentence('password must be at least 10 characters')).toBe('Password must be at least 10 characters.');
    expect(sentence('Already one.')).toBe('Already one.');
  });
});

describe('failedField', () => {
  it("reads the field of the server's error answer", () => {
    expect(failedField('{"message":"The current password is not right.","code":"INVALID_CURRENT_PASSWORD","field":"currentPassword"}')).toBe('currentPassword');
    expect(failedField('{"message":"x"}')).toBeNull();
    expect(failedField('<html>Bad gateway</html>')).toBeNull();
  });
});
