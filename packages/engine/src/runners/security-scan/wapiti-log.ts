/**
 * Reads what wapiti 3.x prints at `-v 1`: each attack module's section ("[*] Launching module xss"), the URLs it
 * started ("[+] GET http://host/search?q=a (1)", forms followed by "\tdata: q=a"), the exception and traceback
 * it printed when it crashed (wapiti catches it, prints it and moves on to the next module), and its time limit.
 */

/** A URL or form as wapiti printed it when a module started attacking it. */
export interface LoggedRequest {
  /** Absent in modules that print the URL only (permanentxss). */
  method?: string;
  url: string;
  /** Form body, url-encoded. */
  data?: string;
}

export interface ModuleSection {
  module: string;
  started: LoggedRequest[];
  /** The exception it crashed with ("UnicodeDecodeError: …") and the request it was attacking then. */
  crash?: { error: string; at?: LoggedRequest };
  /** It stopped at --max-attack-time. */
  timeLimit: boolean;
  /** wapiti went on to another module or to its report: the module's loop ended. */
  ended: boolean;
}

export interface WapitiLog {
  sections: ModuleSection[];
  /** The crawl stopped at --max-scan-time: the modules attacked what it had found by then. */
  crawlTimeLimit: boolean;
  /** "[*] Wapiti found N URLs and forms during the scan". */
  found?: number;
  reportWritten: boolean;
  /** An error that ended wapiti itself (an uncaught exception, a locked session database). */
  fatal?: string;
}

const LAUNCH = /^\[\*\] Launching module (\w+)/;
const STARTED = /^\[\+\] (?:([A-Z]+) )?(\S+?)(?: \(\d+\))?$/;
const TRACEBACK_FRAME = /^ {2}File "[^"]*", line \d+, in /;
const EXCEPTION_LINE = /^([A-Za-z_][\w.]*) ?(.*)$/;

// eslint-disable-next-line no-control-regex -- wapiti colours some lines with ANSI escapes
const ANSI = /\u001b\[[0-9;]*m/g;
/** The line without wapiti's colours. */
export const withoutColours = (line: string): string => line.replace(ANSI, '');

export function parseWapitiLog(log: string): WapitiLog {
  const lines = log.replace(ANSI, '').split(/\r?\n/);
  const sections: ModuleSection[] = [];
  let current: ModuleSection | undefined;
  let reportWritten = false;
  let fatal: string | undefined;
  let crawlTimeLimit = false;
  let uncaught = false;
  let found: number | undefined;
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const launch = LAUNCH.exec(line);
    if (launch) {
      if (current) current.ended = true;
      current = { module: launch[1]!, started: [], timeLimit: false, ended: false };
      sections.push(current);
    } else if (line.startsWith('A report has been generated in the file')) {
      reportWritten = true;
      if (current) current.ended = true;
      current = undefined;
    } else if (!current && line.startsWith('Max scan time was reached, stopping.')) {
      crawlTimeLimit = true;
    } else if (!current && /^\[\*\] Wapiti found (\d+) URLs and forms/.test(line)) {
      found = Number(/(\d+)/.exec(line)![1]);
    } else if (line.startsWith('Traceback (most recent call last):')) {
      // Uncaught: wapiti itself ends. Its last non-empty line names the exception.
      uncaught = true;
      fatal = lines.slice(i).filter((l) => l.trim() && !TRACEBACK_FRAME.test(l) && !l.startsWith('    ')).at(-1)?.trim() ?? 'a Python error';
    } else if (line.startsWith("[!] Can't store informations in persister")) {
      fatal = 'its session database was locked';
    } else if (current) {
      const started = current.crash ? null : STARTED.exec(line);
      if (started) {
        const request: LoggedRequest = { url: started[2]! };
        if (started[1]) request.method = started[1];
        const data = /^\tdata: (.*)$/.exec(lines[i + 1] ?? '');
        if (data) request.data = data[1]!;
        current.started.push(request);
      } else if (line.includes('Max attack time was reached for module')) {
        current.timeLimit = true;
      } else if (TRACEBACK_FRAME.test(line) && !uncaught && !current.crash && !TRACEBACK_FRAME.test(previous)) {
        const m = EXCEPTION_LINE.exec(previous.trim());
        const error = m ? `${m[1]}${m[2] ? `: ${m[2]}` : ''}` : previous.trim() || 'a Python error';
        current.crash = { error: error.slice(0, 300), ...(current.started.length ? { at: current.started.at(-1)! } : {}) };
      }
    }
    if (line.trim()) previous = line;
  }
  return { sections, crawlTimeLimit, reportWritten, ...(found !== undefined ? { found } : {}), ...(fatal ? { fatal } : {}) };
}
