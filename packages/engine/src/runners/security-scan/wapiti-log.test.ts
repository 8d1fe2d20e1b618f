import { describe, expect, it } from 'vitest';
import { parseWapitiLog } from './wapiti-log.ts';

// What Debian's wapiti 3.0.4 printed (-v 1, stdout and stderr in one pipe) when its exec module crashed on /crash.
const CRASHED = `[*] You are lucky! Full moon tonight.
[+] GET http://127.0.0.1:45123/ (0)
[+] GET http://127.0.0.1:45123/crash?id=ok (1)
Max scan time was reached, stopping.
[*] Saving scan state, please wait...
[*] Wapiti found 7 URLs and forms during the scan
[*] Loading modules:
\t backup, blindsql, brute_login_form, buster, cookieflags, crlf, csp, csrf, exec, file
\u001b[1;32m[*] Launching module exec\u001b[0;0m
[+] GET http://127.0.0.1:45123/ (0)
[+] GET http://127.0.0.1:45123/crash?id=ok (1)
UnicodeDecodeError 'utf-8' codec can't decode byte 0xe9 in position 0: invalid continuation byte
  File "/usr/lib/python3/dist-packages/wapitiCore/main/wapiti.py", line 390, in attack
    original_request_or_exception = next(generator)
                                    ^^^^^^^^^^^^^^^
  File "/usr/lib/python3/dist-packages/wapitiCore/attack/mod_exec.py", line 114, in attack
    response = self.crawler.send(mutated_request)
[*] Launching module file
[+] POST http://127.0.0.1:45123/login (1)
\tdata: user=a&password=b
Max attack time was reached for module file, stopping.
[*] Launching module permanentxss
[+] http://127.0.0.1:45123/crash?id=ok

Report
------
A report has been generated in the file /tmp/run/wapiti/report.json
`;

describe('wapiti log', () => {
  it('finds the module that crashed, its exception and the URL it was attacking, and the module out of time', () => {
    const log = parseWapitiLog(CRASHED);
    expect(log).toMatchObject({ reportWritten: true, crawlTimeLimit: true, found: 7 });
    expect(log.fatal).toBeUndefined();
    expect(log.sections).toEqual([
      {
        module: 'exec',
        started: [
          { method: 'GET', url: 'http://127.0.0.1:45123/' },
          { method: 'GET', url: 'http://127.0.0.1:45123/crash?id=ok' },
        ],
        crash: {
          error: "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 0: invalid continuation byte",
          at: { method: 'GET', url: 'http://127.0.0.1:45123/crash?id=ok' },
        },
        timeLimit: false,
        ended: true,
      },
      { module: 'file', started: [{ method: 'POST', url: 'http://127.0.0.1:45123/login', data: 'user=a&password=b' }], timeLimit: true, ended: true },
      { module: 'permanentxss', started: [{ url: 'http://127.0.0.1:45123/crash?id=ok' }], timeLimit: false, ended: true },
    ]);
  });

  it('leaves the module wapiti died in unended, and names an uncaught error', () => {
    const log = parseWapitiLog(`[*] Launching module sql
[+] GET http://127.0.0.1:45123/crash?id=ok (1)
Traceback (most recent call last):
  File "/usr/bin/wapiti", line 33, in <module>
    sys.exit(load_entry_point('wapiti3==3.0.4', 'console_scripts', 'wapiti')())
MemoryError
`);
    expect(log).toMatchObject({ reportWritten: false, fatal: 'MemoryError' });
    expect(log.sections).toEqual([{ module: 'sql', started: [{ method: 'GET', url: 'http://127.0.0.1:45123/crash?id=ok' }], timeLimit: false, ended: false }]);
  });
});
