import cronParser from 'cron-parser';
import { ValidationError } from '../../lib/errors.ts';

// Cron expressions are read by cron-parser, the parser pg-boss's own cron uses, so a schedule means the same here
// and there. Five fields: a minute is the finest tick.

let zones: Set<string> | null = null;

/** An IANA time zone this runtime knows (Intl.supportedValuesOf), or UTC. */
export function assertTimezone(timezone: string): void {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);
  if (!zones.has(timezone)) throw new ValidationError(`timezone "${timezone}" is not a known time zone (e.g. "Europe/Paris", "America/New_York", "UTC")`, 'timezone');
}

export function assertCron(cron: string, timezone: string): void {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw new ValidationError('cron must have five fields: minute hour day-of-month month day-of-week (e.g. "0 6 * * 1-5")', 'cron');
  }
  try {
    cronParser.parseExpression(cron, { tz: timezone });
  } catch (err) {
    throw new ValidationError(`cron "${cron}" is not valid: ${(err as Error).message}`, 'cron');
  }
}

/** The first cron time strictly after `from`. */
export function nextTick(cron: string, timezone: string, from: Date): Date {
  return cronParser.parseExpression(cron, { tz: timezone, currentDate: from }).next().toDate();
}

/** The latest cron time at or before `now` (the tick a run is due for). */
export function dueTick(cron: string, timezone: string, now: Date): Date {
  return cronParser.parseExpression(cron, { tz: timezone, currentDate: new Date(now.getTime() + 1) }).prev().toDate();
}
