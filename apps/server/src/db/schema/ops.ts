import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, users } from './accounts.ts';

// The operators' console (issue 9): what operators record about a client's results beyond the results themselves.

/**
 * A test flagged flaky, by an operator or by detection (issue 10: passed on retry, or flipped twice in its last 10
 * runs on one suite version). A row means "flagged": alerts stay silent for it, the portal and console show it.
 * A detected flag goes after 10 passes in a row unless an operator confirmed it; an operator's flag stays until
 * an operator clears it. One mark per client and test name.
 */
export const testFlakyMarks = pgTable(
  'test_flaky_marks',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    testName: text('test_name').notNull(),
    note: text('note'),
    /** The operator's user; null for the operator token. */
    markedBy: text('marked_by').references(() => users.id, { onDelete: 'set null' }),
    /** 'operator' (marked by hand) or 'detected' (by the engine after a run). */
    source: text('source').$type<'detected' | 'operator'>().notNull().default('operator'),
    /** Why, in words a client reads ("passed on retry (attempt 2 of 3) in run …"). */
    reason: text('reason'),
    /** When detection last found it flaky; the 10 passes that clear it count from here. */
    detectedAt: timestamp('detected_at', { withTimezone: true }),
    /** The operator who confirmed it (null for the operator token); confirmedAt set means confirmed. */
    confirmedBy: text('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('test_flaky_marks_client_test_key').on(t.clientId, t.testName)],
);
