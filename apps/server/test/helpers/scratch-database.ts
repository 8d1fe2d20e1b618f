import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A PostgreSQL database of its own beside `adminUrl`'s (a superuser's), for one test file or bench run: its name and
 * URL at once, the database itself on `create()` (empty, or a copy of a template), gone again (connections and all) on
 * `drop()`.
 */
export function scratchDatabase(
  adminUrl: string,
  prefix: string,
): { name: string; url: string; create(options?: { template?: string }): Promise<void>; drop(): Promise<void> } {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const asAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    name,
    url: url.toString(),
    // A template (a database nobody is connected to) is copied whole: its tables, rows and migrations' journal.
    create: (options = {}) => asAdmin(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`),
    drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
