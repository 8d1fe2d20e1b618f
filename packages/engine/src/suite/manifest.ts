import { z } from 'zod';
import { cellBoundProblem, groupMatrix } from '../lib/cell-matrix.ts';
import { TEST_KINDS } from '../types.ts';
import { loginDeclaration } from './login-declaration.ts';

/** The manifest's file name at the root of a suite folder. */
export const MANIFEST_FILE = 'suite.json';

/**
 * Test names travel in URLs (`GET /test/run/{testName}`) and report file names, so they keep to a plain
 * alphabet: letters, digits, spaces and `. _ - ( )`, starting with a letter or digit.
 */
export const TEST_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,99}$/;

const testName = z
  .string({ error: 'must be a string' })
  .regex(TEST_NAME_PATTERN, {
    error: 'must be 1-100 characters: letters, digits, spaces and . _ - ( ), starting with a letter or digit',
  })
  .refine((v) => v.trim() === v, { error: 'must not start or end with a space' });

export const manifestTest = z.strictObject({
  name: testName,
  kind: z.enum(TEST_KINDS, { error: `must be one of ${TEST_KINDS.join(', ')}` }),
  description: z.string().max(500).optional(),
  options: z.record(z.string(), z.unknown()).default({}),
  thresholds: z.record(z.string(), z.number({ error: 'must be a number' })).optional(),
  /** Overrides the kind's time limit (seconds). */
  timeoutSeconds: z.number().int().min(1).max(3600).optional(),
  /** Overrides how many times a run that errored (not failed) is retried. */
  retries: z.number().int().min(0).max(5).optional(),
  /** `false`: this test runs without the suite's login (e.g. to test the public pages). */
  login: z.boolean({ error: 'must be true or false' }).optional(),
  /**
   * Written by a starter suite's proposal (decision 0102): the page it was proposed for, the day, and a fingerprint of
   * the test and its files as written. A later proposal may remove it when its page is gone, only while the fingerprint
   * still matches: a test edited since (or without this field) is hand-written, and never touched. Runs ignore it.
   */
  proposed: z
    .strictObject({
      page: z.string().max(2000).optional(),
      on: z.string().max(30).optional(),
      sha256: z.string().max(64).optional(),
    })
    .optional(),
});
export type ManifestTest = z.infer<typeof manifestTest>;

export const manifestGroup = z
  .strictObject({
    name: z.string().trim().min(1, { error: 'must not be empty' }).max(100),
    tests: z.array(manifestTest).min(1, { error: 'a group needs at least one test' }),
    /** The matrix of the group's browser and accessibility tests that do not set their own (suite/group-matrix.ts). */
    ...groupMatrix,
  })
  .superRefine((group, ctx) => {
    const problem = cellBoundProblem({ engines: group.engines ?? ['chromium'], devices: group.devices ?? ['desktop'], networks: group.networks ?? ['none'] });
    if (problem) ctx.addIssue({ code: 'custom', path: ['networks'], message: `group "${group.name}": ${problem}` });
  });

export const suiteManifest = z.strictObject({
  /** The manifest format's version; only 1 exists. */
  version: z.literal(1, { error: 'must be 1' }),
  name: z.string().max(100).optional(),
  description: z.string().max(1000).optional(),
  /** How every test of the suite logs in to the site (decision 0060); secrets are named, never written here. */
  login: loginDeclaration.optional(),
  groups: z.array(manifestGroup).min(1, { error: 'a suite needs at least one group' }),
});
export type SuiteManifest = z.infer<typeof suiteManifest>;
