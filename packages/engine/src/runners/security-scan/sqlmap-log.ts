/**
 * What sqlmap (Debian's 1.7) said of one call: its injection points from `<output>/<host>/log`, and from its console
 * output the parameters a quote made the server answer with a database's error, and whether it tested every
 * parameter to the end. Read conservatively: a line sqlmap did not write in one of these shapes counts for nothing.
 */

/** An injection point sqlmap confirmed with one or more techniques. */
export interface SqlmapInjection {
  /** The parameter, as the call's JSON key. */
  param: string;
  /** "boolean-based blind", "error-based", … */
  types: string[];
  /** The technique's title, e.g. "AND boolean-based blind - WHERE or HAVING clause". */
  titles: string[];
  dbms?: string;
}

/** A parameter whose payload with a quote made the server answer with a database's error message. */
export interface SqlmapErrorHint {
  param: string;
  dbms: string;
}

export interface SqlmapOutcome {
  injections: SqlmapInjection[];
  errorHints: SqlmapErrorHint[];
  /** Every parameter was tested to the end (none injectable, or one confirmed). */
  finished: boolean;
  /** What stopped it, when it did not finish: its last CRITICAL (or ERROR) line. */
  error?: string;
}

/** sqlmap names a JSON body's key "JSON email"; a form's or the query's is the bare name. */
const paramName = (raw: string) => raw.replace(/^JSON /, '').trim();

/** The injection points of sqlmap's `log` file (the same text it prints after "identified the following"). */
export function parseSqlmapLog(text: string): SqlmapInjection[] {
  const out: SqlmapInjection[] = [];
  const dbms = /^back-end DBMS: (.+)$/m.exec(text)?.[1]?.trim();
  let current: SqlmapInjection | undefined;
  for (const line of text.split(/\r?\n/)) {
    const parameter = /^Parameter: (.+?) \((?:\(custom\) )?(?:POST|GET|URI|Cookie|PUT|PATCH|DELETE)\)\s*$/.exec(line);
    if (parameter) {
      current = { param: paramName(parameter[1]!), types: [], titles: [], ...(dbms ? { dbms } : {}) };
      out.push(current);
      continue;
    }
    const type = /^\s+Type: (.+)$/.exec(line);
    if (type && current) current.types.push(type[1]!.trim());
    const title = /^\s+Title: (.+)$/.exec(line);
    if (title && current) current.titles.push(title[1]!.trim());
    if (line.startsWith('---') && current && current.types.length > 0) current = undefined;
  }
  return out.filter((x) => x.types.length > 0);
}

const HINT = /heuristic \(basic\) test shows that (?:\(custom\) )?\w+ parameter '([^']+)' might be injectable \(possible DBMS: '([^']+)'\)/;
const FINISHED = /all tested parameters do not appear to be injectable|sqlmap identified the following injection point|parameter '[^']+' is vulnerable\./;
const STOPPED = /\[(CRITICAL|ERROR)\] (.+)$/;

/** sqlmap's console output (colours off): its error hints, whether it finished, and what stopped it. */
export function parseSqlmapOutput(text: string): Omit<SqlmapOutcome, 'injections'> {
  const errorHints: SqlmapErrorHint[] = [];
  let error: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const hint = HINT.exec(line);
    if (hint && !errorHints.some((h) => h.param === paramName(hint[1]!))) errorHints.push({ param: paramName(hint[1]!), dbms: hint[2]! });
    const stopped = STOPPED.exec(line);
    // "all tested parameters do not appear to be injectable" is sqlmap's ERROR line for a clean end, not a failure.
    if (stopped && !FINISHED.test(line)) error = stopped[2]!.trim().slice(0, 300);
  }
  const finished = FINISHED.test(text);
  return { errorHints, finished, ...(finished || !error ? {} : { error }) };
}
