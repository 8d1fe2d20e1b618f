import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAtColumn, idColumn, ownerClientColumn, users } from './accounts.ts';

// The operators' console (issue 9): what operators record about a client's results beyond the results themselves.

/** A test an operator marked flaky: the runs feed says so beside its failures. One mark per client and test name. */
export const testFlakyMarks = pgTable(
  'test_flaky_marks',
  {
    id: idColumn(),
    clientId: ownerClientColumn(),
    testName: text('test_name').notNull(),
    note: text('note'),
    /** The operator's user; null for the operator token. */
    markedBy: text('marked_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAtColumn(),
  },
  (t) => [uniqueIndex('test_flaky_marks_client_test_key').on(t.clientId, t.testName)],
);
