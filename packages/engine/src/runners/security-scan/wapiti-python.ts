/**
 * A `sitecustomize` the engine loads into wapiti's Python (the run's `wapiti/python` folder first on PYTHONPATH).
 * It keeps one known crash of wapiti 3.0.4 with python-requests 2.x from stopping an attack module
 * (docs/decisions/0058, "Why sql crashed on a redirect"):
 *
 * requests works out where a redirect goes even when it is not followed (`response.next`), and decodes the
 * Location header as strict UTF-8. A site that echoes a payload into Location writes its header in Latin-1 (Node,
 * Python's http.server, most servlet containers): the sql module's `¿` (U+00BF) arrives as the lone byte 0xBF, and
 * the UnicodeDecodeError, not a RequestException, escapes the module's loop. Undecodable bytes are now
 * percent-encoded, as a browser does with them.
 *
 * Written into the run folder rather than shipped as a .py file, so a bundled engine has it too.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const WAPITI_SITECUSTOMIZE = `# Written by Fullstop QA's engine for this scan (packages/engine/src/runners/security-scan/wapiti-python.ts).
try:
    from urllib.parse import quote as _quote
    from requests import sessions as _sessions
except ImportError:
    pass
else:
    _PRINTABLE = "".join(chr(c) for c in range(0x21, 0x7F))
    _redirect_target = _sessions.SessionRedirectMixin.get_redirect_target

    def _get_redirect_target(self, resp):
        try:
            return _redirect_target(self, resp)
        except UnicodeDecodeError:
            # Latin-1 is how http.client decoded the header: encoding it gives back the bytes the site sent.
            return _quote(resp.headers["location"].encode("latin1"), safe=_PRINTABLE)

    _sessions.SessionRedirectMixin.get_redirect_target = _get_redirect_target
`;

/** Writes the patch into `<dir>/python` and returns the PYTHONPATH that loads it (before any the engine had). */
export async function wapitiPythonPath(dir: string, inherited: string | undefined): Promise<string> {
  const folder = path.join(dir, 'python');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'sitecustomize.py'), WAPITI_SITECUSTOMIZE);
  return inherited ? `${folder}${path.delimiter}${inherited}` : folder;
}
