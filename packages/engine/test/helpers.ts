import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { ValidationError } from '../src/errors.ts';
import { parseTestInput } from '../src/lib/options.ts';
import { browserInput } from '../src/runners/browser/options.ts';
import type { RunContext, RunTarget, TestDefinition, TestKind } from '../src/types.ts';
import { DEFAULT_CHROMIUM_PATH } from '../src/lib/chromium.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

export async function makeContext(overrides: Partial<RunContext> = {}): Promise<RunContext & { logs: string[] }> {
  const logs: string[] = [];
  const runDir = await mkdtemp(path.join(tmpdir(), 'fullstop-engine-test-'));
  // KEEP_RUN_DIRS=1 keeps the run folders to look at the artifacts of a failing test.
  if (!process.env.KEEP_RUN_DIRS) onTestFinished(() => rm(runDir, { recursive: true, force: true }));
  return {
    runDir,
    signal: new AbortController().signal,
    chromiumPath: CHROMIUM_PATH,
    workers: 2,
    log: (message, data) => logs.push(data ? `${message} ${JSON.stringify(data)}` : message),
    logs,
    ...overrides,
  };
}

/** Fixture servers listen on 127.0.0.1, so their targets allow private addresses. */
export function localTarget(baseUrl: string, overrides: Partial<RunTarget> = {}): RunTarget {
  return { baseUrl, allowedOrigins: [], allowPrivateAddresses: true, ...overrides };
}

export function testOf(kind: TestKind, options: Record<string, unknown>, extra: Partial<TestDefinition> = {}): TestDefinition {
  return { name: `${kind} test`, group: 'Engine', kind, options, ...extra };
}

/** A browser test's options as the runner reads them (defaults filled in); throws a ValidationError when refused. */
export const parseBrowserOptions = (options: Record<string, unknown>) => parseTestInput(browserInput, { name: 't', group: 'G', kind: 'browser', options }).options;

/** Why a browser test's options are refused, as "field: reason"; null when they are valid. */
export function browserOptionsProblem(options: Record<string, unknown>): string | null {
  try {
    parseBrowserOptions(options);
  } catch (error) {
    if (error instanceof ValidationError) return `${error.field}: ${error.reason}`;
    throw error;
  }
  return null;
}
