/**
 * The environment a runner process and everything it starts may see: an allow-list, never the server's own
 * environment (which holds SERVER_KEY, OPERATOR_TOKEN, DATABASE_URL, SMTP_URL ...). Clients' sites, browsers
 * and files are hostile; whatever a runner can read, a page that owns the runner can read.
 */

/** Every process of one attempt carries this variable; the sweeper finds and kills them by it. */
export const ATTEMPT_TAG_VAR = 'FULLSTOP_ATTEMPT';

/** What the tools need to run: locale, time zone, where home and temporary files are, the browser's path. */
const PASSED_VARS = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LANGUAGE',
  'TZ',
  'USER',
  'LOGNAME',
  'CHROMIUM_PATH',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'FONTCONFIG_PATH',
  'XDG_RUNTIME_DIR',
  ATTEMPT_TAG_VAR,
];
const PASSED_PREFIXES = ['LC_'];

/** The allowed variables of `source` (the current process by default), plus `extra`. */
export function childEnv(source: NodeJS.ProcessEnv = process.env, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (PASSED_VARS.includes(name) || PASSED_PREFIXES.some((p) => name.startsWith(p))) env[name] = value;
  }
  return { ...env, ...extra };
}
