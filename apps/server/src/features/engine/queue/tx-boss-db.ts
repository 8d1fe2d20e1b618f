import { type SQL, sql } from 'drizzle-orm';
import type { BossDb } from './boss.ts';

/**
 * pg-boss's `db` option over a Drizzle transaction, so a run's rows and its jobs commit or roll back together.
 * pg-boss writes `$1`-style placeholders; each becomes a bound Drizzle parameter in the same place.
 */
export function drizzleBossDb(tx: { execute: (query: SQL) => Promise<unknown> }): BossDb {
  return {
    async executeSql(text, values = []) {
      const pieces = text.split(/\$(\d+)/);
      const parts: SQL[] = pieces.map((piece, i) => (i % 2 === 0 ? sql.raw(piece) : sql`${values[Number(piece) - 1] ?? null}`));
      const result = (await tx.execute(sql.join(parts))) as { rows?: unknown[] } | unknown[];
      return { rows: Array.isArray(result) ? result : (result.rows ?? []) };
    },
  };
}
