import { describe, expect, it } from 'vitest';
import { parseSqlmapLog, parseSqlmapOutput } from './sqlmap-log.ts';

// sqlmap 1.7.2's own words (Debian's package), from runs against the engine's fixture sites.
const CONFIRMED_LOG = `sqlmap identified the following injection point(s) with a total of 16 HTTP(s) requests:
---
Parameter: JSON q ((custom) POST)
    Type: boolean-based blind
    Title: AND boolean-based blind - WHERE or HAVING clause
    Payload: {"q":"fullstop' AND 3850=3850 AND 'fYNw'='fYNw","n":1}
---
back-end DBMS: SQLite
`;

const HINT_OUTPUT = `[03:38:06] [INFO] testing connection to the target URL
[03:38:06] [INFO] heuristic (basic) test shows that (custom) POST parameter 'JSON email' might be injectable (possible DBMS: 'SQLite')
[03:38:07] [WARNING] (custom) POST parameter 'JSON email' does not seem to be injectable
[03:38:07] [WARNING] heuristic (basic) test shows that (custom) POST parameter 'JSON password' might not be injectable
[03:38:07] [ERROR] all tested parameters do not appear to be injectable. Try to increase values for '--level'/'--risk' options
`;

describe("sqlmap's output", () => {
  it('reads the confirmed injection points of its log, with the technique and the database', () => {
    expect(parseSqlmapLog(CONFIRMED_LOG)).toEqual([
      { param: 'q', types: ['boolean-based blind'], titles: ['AND boolean-based blind - WHERE or HAVING clause'], dbms: 'SQLite' },
    ]);
    expect(parseSqlmapLog('')).toEqual([]);
    // A parameter line without a technique under it is no finding.
    expect(parseSqlmapLog('Parameter: JSON q ((custom) POST)\n---\n')).toEqual([]);
  });

  it('reads a database error answered to a quote as a hint, and a clean end as finished', () => {
    expect(parseSqlmapOutput(HINT_OUTPUT)).toEqual({ errorHints: [{ param: 'email', dbms: 'SQLite' }], finished: true });
  });

  it('says what stopped it when it did not test every parameter', () => {
    const out = parseSqlmapOutput("[03:31:00] [INFO] testing connection to the target URL\n[03:31:00] [CRITICAL] unable to connect to the target URL ('Connection refused')\n");
    expect(out).toEqual({ errorHints: [], finished: false, error: "unable to connect to the target URL ('Connection refused')" });
  });
});
