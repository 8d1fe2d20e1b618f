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

describe('structure', () => {
  it('finds the route files', () => {
    expect(routeFiles()).toEqual(expect.arrayContaining(['features/auth/routes.ts', 'features/engine/routes/test-routes.ts', 'features/requests/plugin.ts']));
  });

  it('keeps data access out of route files: they call repositories, never Drizzle or the schema', () => {
    const offenders = routeFiles().filter((file) => DATA_ACCESS.test(readFileSync(path.join(SRC, file), 'utf8')));
    expect(offenders, `route files importing drizzle-orm or db/schema: ${offenders.join(', ')}`).toEqual([]);
  });
});
