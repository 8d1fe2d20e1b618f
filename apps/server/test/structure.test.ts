import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** A file that declares a route handler: `app.get(`, `app.post(`, … or `app.route(`. */
const DECLARES_ROUTE = /\bapp\.(get|post|put|patch|delete|route)\(/;

/** Every file that declares routes, wherever it lives and whatever it is called. */
function routeFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .filter((file) => DECLARES_ROUTE.test(readFileSync(path.join(SRC, file), 'utf8')));
}

const DATA_ACCESS = /from\s+['"](drizzle-orm(\/[^'"]*)?|[^'"]*\/db\/schema(\/[^'"]*)?)['"]/;

/** A statement run on a Drizzle database or transaction: `db.select(`, `tx.insert(`, `this.db.execute(`, `db\n  .update(`, … */
const RUNS_QUERY = /\b(db|tx)\s*\.\s*(select|selectDistinct|selectDistinctOn|insert|update|delete|execute)\s*\(|\b(db|tx)\s*\.\s*query\s*\.\s*\w+\s*\.\s*find(First|Many)\s*\(/;
/** Where queries belong: a feature's `repository.ts` or `<thing>-repository.ts` (lib's too), and db/ itself. */
const IS_REPOSITORY = (file: string) => file.startsWith('db/') || /(^|\/)([\w-]+-)?repository\.ts$/.test(file);

/** Every source file (not a test) that runs a query. */
function queryFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .filter((file) => RUNS_QUERY.test(readFileSync(path.join(SRC, file), 'utf8')));
}

describe('structure', () => {
  it('finds the route files', () => {
    expect(routeFiles()).toEqual(expect.arrayContaining(['features/auth/routes.ts', 'features/runs/routes.ts', 'features/requests/plugin.ts']));
  });

  it('keeps data access out of route files: they call repositories, never Drizzle or the schema', () => {
    const offenders = routeFiles().filter((file) => DATA_ACCESS.test(readFileSync(path.join(SRC, file), 'utf8')));
    expect(offenders, `route files importing drizzle-orm or db/schema: ${offenders.join(', ')}`).toEqual([]);
  });

  it('finds the files that run queries', () => {
    expect(queryFiles()).toEqual(expect.arrayContaining(['features/runs/run-repository.ts', 'features/schedules/schedule-repository.ts', 'lib/audit-repository.ts']));
  });

  it('keeps every query in a repository: services and routes call repository functions, never db.select or tx.execute', () => {
    const offenders = queryFiles().filter((file) => !IS_REPOSITORY(file));
    expect(offenders, `files outside a repository running queries: ${offenders.join(', ')}`).toEqual([]);
  });
});
