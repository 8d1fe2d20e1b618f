import { describe, expect, it } from 'vitest';
import { viewerReason } from './viewer.ts';

describe('viewerReason', () => {
  it('names what a viewer cannot do and who can change it', () => {
    expect(viewerReason('viewer', 'run tests')).toBe('Viewers cannot run tests: ask an owner of your team for the member role.');
  });

  it('lets members, owners, operators and logins stored before teams through', () => {
    for (const role of ['member', 'owner', null, undefined] as const) expect(viewerReason(role, 'run tests')).toBeNull();
  });
});
