import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AttemptFileError, readAttemptFile, readAttemptJson, readInsideAttempt } from './attempt-file.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fullstop-attempt-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The error `read` ends with (it must end with one). */
async function refusal(read: Promise<unknown>): Promise<AttemptFileError> {
  const error = await read.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AttemptFileError);
  return error as AttemptFileError;
}

const schema = z.object({ pages: z.array(z.object({ path: z.string() }).strict()) }).strict();

describe('reading a file a runner wrote in an attempt folder', () => {
  it('reads a regular file, and parses JSON with its schema', async () => {
    const file = path.join(dir, 'survey.json');
    await writeFile(file, JSON.stringify({ pages: [{ path: '/' }] }));
    expect((await readAttemptFile(file)).toString('utf8')).toBe('{"pages":[{"path":"/"}]}');
    expect(await readAttemptJson(file, schema)).toEqual({ pages: [{ path: '/' }] });
    // A file of exactly the limit is read; an empty one too.
    await writeFile(file, 'x'.repeat(1000));
    expect((await readAttemptFile(file, { maxBytes: 1000 })).length).toBe(1000);
    await writeFile(file, '');
    expect((await readAttemptFile(file)).length).toBe(0);
  });

  it('refuses a symbolic link, even to a good file', async () => {
    const target = path.join(dir, 'elsewhere.json');
    await writeFile(target, JSON.stringify({ pages: [] }));
    const file = path.join(dir, 'survey.json');
    await symlink(target, file);
    const error = await refusal(readAttemptJson(file, schema));
    expect(error.problem).toBe('not-a-file');
    expect(error.message).toBe('survey.json is not a regular file');
  });

  it('refuses a hard link to a file elsewhere', async () => {
    const target = path.join(dir, 'server-secret.json');
    await writeFile(target, JSON.stringify({ pages: [] }));
    const file = path.join(dir, 'survey.json');
    await link(target, file);
    expect((await refusal(readAttemptFile(file))).problem).toBe('not-a-file');
  });

  it('refuses a FIFO at once (never waits for a writer) and a directory', async () => {
    const fifo = path.join(dir, 'survey.json');
    execFileSync('mkfifo', [fifo]);
    expect((await refusal(readAttemptFile(fifo))).problem).toBe('not-a-file');
    const folder = path.join(dir, 'folder.json');
    await mkdir(folder);
    expect((await refusal(readAttemptFile(folder))).message).toBe('folder.json is not a regular file');
  });

  it('refuses a file over the limit, and says a missing file is missing', async () => {
    const file = path.join(dir, 'survey.json');
    await writeFile(file, 'x'.repeat(1001));
    const error = await refusal(readAttemptFile(file, { maxBytes: 1000 }));
    expect(error.problem).toBe('too-large');
    expect(error.message).toBe('survey.json is larger than 1000 bytes');
    await writeFile(file, Buffer.alloc(9 * 1024 * 1024));
    expect((await refusal(readAttemptFile(file))).message).toBe('survey.json is larger than 8 MB');
    expect((await refusal(readAttemptFile(path.join(dir, 'none.json')))).problem).toBe('missing');
  });

  it('quotes nothing of a file that is not JSON or not what the schema says (the detail is for the log)', async () => {
    const file = path.join(dir, 'survey.json');
    await writeFile(file, 'SECRET-CONTENT {"pages": [');
    const notJson = await refusal(readAttemptJson(file, schema));
    expect(notJson.problem).toBe('not-json');
    expect(notJson.message).toBe('survey.json is not valid JSON');
    expect(notJson.message).not.toContain('SECRET');

    await writeFile(file, JSON.stringify({ pages: [{ path: 'SECRET-CONTENT', SECRETKEY: 1 }] }));
    const invalid = await refusal(readAttemptJson(file, schema));
    expect(invalid.problem).toBe('not-valid');
    expect(invalid.message).toBe('survey.json is not what was expected');
    expect(invalid.detail).toContain('pages.0');
  });

  it('reads a report\'s file by its path in the attempt only when no link leads it out, a folder link included', async () => {
    const attempt = path.join(dir, 'attempt-1');
    const outside = path.join(dir, 'outside');
    await mkdir(path.join(attempt, 'shots'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(attempt, 'shots', 'a.png'), 'PNG');
    await writeFile(path.join(outside, 'server-key'), 'SECRET');
    await symlink(outside, path.join(attempt, 'planted'));
    await symlink(path.join(outside, 'server-key'), path.join(attempt, 'shots', 'b.png'));
    expect((await readInsideAttempt(attempt, 'shots/a.png'))?.toString()).toBe('PNG');
    expect(await readInsideAttempt(attempt, 'planted/server-key')).toBeNull();
    expect(await readInsideAttempt(attempt, 'shots/b.png')).toBeNull();
    expect(await readInsideAttempt(attempt, '../outside/server-key')).toBeNull();
    expect(await readInsideAttempt(attempt, 'shots/a.png', { maxBytes: 2 })).toBeNull();
  });
});
