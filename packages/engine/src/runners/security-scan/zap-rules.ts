import type { Risk } from '../../types.ts';

/**
 * ZAP's scan rule for each kind of flaw wapiti reports, with ZAP's plugin id, alert name and risk, so an active
 * finding reads and counts as ZAP would report it. Ids, names and risks are those of zaproxy/zap-extensions
 * (addOns/ascanrules*, addOns/pscanrules: each rule's getId()/getRisk() and its Messages.properties name); the
 * wapiti categories are the NAMEs in wapitiCore/definitions of wapiti 3.0.4 (Debian's wapiti3 package).
 */
export interface ZapRule {
  id: string;
  name: string;
  risk: Risk;
}

export const ZAP_RULES = {
  reflectedXss: { id: '40012', name: 'Cross Site Scripting (Reflected)', risk: 'High' },
  persistentXss: { id: '40014', name: 'Cross Site Scripting (Persistent)', risk: 'High' },
  sqlInjection: { id: '40018', name: 'SQL Injection', risk: 'High' },
  sqlMySqlTiming: { id: '40019', name: 'SQL Injection - MySQL (Time Based)', risk: 'High' },
  sqlOracleTiming: { id: '40021', name: 'SQL Injection - Oracle (Time Based)', risk: 'High' },
  sqlPostgresTiming: { id: '40022', name: 'SQL Injection - PostgreSQL (Time Based)', risk: 'High' },
  sqlMsSqlTiming: { id: '40027', name: 'SQL Injection - MsSQL (Time Based)', risk: 'High' },
  noSqlMongoDb: { id: '40033', name: 'NoSQL Injection - MongoDB', risk: 'High' },
  xpathInjection: { id: '90021', name: 'XPath Injection', risk: 'High' },
  ldapInjection: { id: '40015', name: 'LDAP Injection', risk: 'High' },
  pathTraversal: { id: '6', name: 'Path Traversal', risk: 'High' },
  externalRedirect: { id: '20019', name: 'External Redirect', risk: 'High' },
  commandInjection: { id: '90020', name: 'Remote OS Command Injection', risk: 'High' },
  shellShock: { id: '10048', name: 'Remote Code Execution - Shell Shock', risk: 'High' },
  crlfInjection: { id: '40003', name: 'CRLF Injection', risk: 'Medium' },
  xxe: { id: '90023', name: 'XML External Entity Attack', risk: 'High' },
  ssrf: { id: '40046', name: 'Server Side Request Forgery', risk: 'High' },
  antiCsrf: { id: '10202', name: 'Absence of Anti-CSRF Tokens', risk: 'Medium' },
  backupFile: { id: '10095', name: 'Backup File Disclosure', risk: 'Medium' },
  bypass403: { id: '40038', name: 'Bypassing 403', risk: 'Medium' },
  hiddenFile: { id: '40035', name: 'Hidden File Found', risk: 'Medium' },
  cspNotSet: { id: '10038', name: 'Content Security Policy (CSP) Header Not Set', risk: 'Medium' },
  cspWeak: { id: '10055', name: 'CSP: Wildcard Directive or unsafe-inline', risk: 'Medium' },
  clickjacking: { id: '10020', name: 'Missing Anti-clickjacking Header', risk: 'Medium' },
  nosniff: { id: '10021', name: 'X-Content-Type-Options Header Missing', risk: 'Low' },
  hsts: { id: '10035', name: 'Strict-Transport-Security Header Not Set', risk: 'Low' },
  xssProtection: { id: '10016', name: 'Web Browser XSS Protection Not Enabled', risk: 'Low' },
  cookieHttpOnly: { id: '10010', name: 'Cookie No HttpOnly Flag', risk: 'Low' },
  cookieSecure: { id: '10011', name: 'Cookie Without Secure Flag', risk: 'Low' },
  /** ZAP raises a 500 answer to its attacks as Application Error Disclosure at Low (ApplicationErrorScanRule). */
  serverError: { id: '90022', name: 'Application Error Disclosure', risk: 'Low' },
} as const satisfies Record<string, ZapRule>;

/** What of a wapiti entry the choice of rule reads: its message and the request that showed it. */
export interface WapitiFlaw {
  info: string;
  http_request?: string;
}

/** The request as text with its URL and body decoded, lower-cased, for the payload checks below. */
function payloadOf(flaw: WapitiFlaw): string {
  const raw = flaw.http_request ?? '';
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // A request with a stray % stays as sent.
  }
  return decoded.toLowerCase();
}

/** wapiti's blind SQL module only times its payloads: the payload that slept names the database, as ZAP's rules do. */
function blindSqlRule(flaw: WapitiFlaw): ZapRule {
  const p = payloadOf(flaw);
  if (p.includes('pg_sleep')) return ZAP_RULES.sqlPostgresTiming;
  if (p.includes('waitfor') || p.includes('driver=sql server')) return ZAP_RULES.sqlMsSqlTiming;
  if (p.includes('sleep(') || p.includes('benchmark(')) return ZAP_RULES.sqlMySqlTiming;
  if (p.includes('dbms_pipe') || p.includes('dbms_lock')) return ZAP_RULES.sqlOracleTiming;
  if (p.includes('new date()')) return ZAP_RULES.noSqlMongoDb;
  return ZAP_RULES.sqlInjection;
}

function sqlRule(flaw: WapitiFlaw): ZapRule {
  // wapiti's sql module reports the injections its error patterns recognise under one category.
  if (/xpath injection/i.test(flaw.info)) return ZAP_RULES.xpathInjection;
  if (/ldap injection/i.test(flaw.info)) return ZAP_RULES.ldapInjection;
  return ZAP_RULES.sqlInjection;
}

function headerRule(flaw: WapitiFlaw): ZapRule | null {
  if (/x-frame-options/i.test(flaw.info)) return ZAP_RULES.clickjacking;
  if (/x-content-type-options/i.test(flaw.info)) return ZAP_RULES.nosniff;
  if (/strict-transport-security/i.test(flaw.info)) return ZAP_RULES.hsts;
  if (/x-xss-protection/i.test(flaw.info)) return ZAP_RULES.xssProtection;
  return null;
}

/** wapiti's category names (English, as its JSON report writes them) and the ZAP rule each stands for. */
const BY_CATEGORY: Record<string, (flaw: WapitiFlaw) => ZapRule | null> = {
  'Cross Site Scripting': (f) => (/^permanent xss/i.test(f.info) ? ZAP_RULES.persistentXss : ZAP_RULES.reflectedXss),
  'SQL Injection': sqlRule,
  'Blind SQL Injection': blindSqlRule,
  'Path Traversal': () => ZAP_RULES.pathTraversal,
  'Open Redirect': () => ZAP_RULES.externalRedirect,
  'Command execution': (f) => (/shellshock/i.test(f.info) ? ZAP_RULES.shellShock : ZAP_RULES.commandInjection),
  'CRLF Injection': () => ZAP_RULES.crlfInjection,
  'XML External Entity': () => ZAP_RULES.xxe,
  'Server Side Request Forgery': () => ZAP_RULES.ssrf,
  'Cross Site Request Forgery': () => ZAP_RULES.antiCsrf,
  'Backup file': () => ZAP_RULES.backupFile,
  'Htaccess Bypass': () => ZAP_RULES.bypass403,
  'Potentially dangerous file': () => ZAP_RULES.hiddenFile,
  'Content Security Policy Configuration': (f) => (/csp is not set/i.test(f.info) ? ZAP_RULES.cspNotSet : ZAP_RULES.cspWeak),
  'HTTP Secure Headers': headerRule,
  'HttpOnly Flag cookie': () => ZAP_RULES.cookieHttpOnly,
  'Secure Flag cookie': () => ZAP_RULES.cookieSecure,
  'Internal Server Error': () => ZAP_RULES.serverError,
};

/** Every wapiti category the mapping knows, for tests and the decision note. */
export const WAPITI_CATEGORIES = Object.keys(BY_CATEGORY);

/**
 * The ZAP rule for one wapiti entry, or null for the categories ZAP has no rule for: wapiti's "Weak credentials"
 * (ZAP does not guess passwords) and "Resource consumption" (a payload that made the site time out; ZAP raises
 * no alert for a timeout). Those keep a `wapiti:` id; see wapiti-report.ts for their risk.
 */
export function zapRuleFor(category: string, flaw: WapitiFlaw): ZapRule | null {
  return BY_CATEGORY[category]?.(flaw) ?? null;
}
