import pg from 'pg';

/**
 * Every query of this process goes through pg.Client#query (drizzle's pool and pg-boss's alike): importing this
 * module counts them, so that a bench can tell its own queries apart from what the database counted.
 */
export const pgQueries = { count: 0 };

const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  pgQueries.count++;
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;
