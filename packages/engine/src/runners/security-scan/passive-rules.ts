import type { GuardedResponse } from '../../lib/http.ts';
import type { Finding, Risk } from '../../types.ts';

/**
 * Passive checks over one response, named after OWASP ZAP's passive scan rules (same ids, names and risks), so an
 * operator who knows ZAP recognises them and false-positive marks keep matching by ruleId + url + param.
 */
interface Rule {
  id: string;
  name: string;
  risk: Risk;
  /** What the weakness lets an attacker do, for a reader who is not a security engineer. */
  description: string;
  solution: string;
}

const RULES = {
  csp: {
    id: '10038',
    name: 'Content Security Policy (CSP) Header Not Set',
    risk: 'Medium',
    description: 'The page sends no Content-Security-Policy, so the browser runs any script that ends up in it: one injection flaw (XSS) is enough to steal sessions or change what visitors see.',
    solution: 'Send a Content-Security-Policy header on every HTML page.',
  },
  cspWeak: {
    id: '10055',
    name: 'CSP: Wildcard Directive or unsafe-inline',
    risk: 'Medium',
    description: 'The Content-Security-Policy allows any source or inline scripts and styles, which takes away most of the protection it gives against injected scripts (XSS).',
    solution: "Remove '*', 'unsafe-inline' and 'unsafe-eval' from the Content-Security-Policy.",
  },
  clickjacking: {
    id: '10020',
    name: 'Missing Anti-clickjacking Header',
    risk: 'Medium',
    description: 'Any other site may show this page in a frame and trick visitors into clicking its buttons (clickjacking).',
    solution: "Send X-Frame-Options: DENY or a CSP frame-ancestors directive.",
  },
  nosniff: {
    id: '10021',
    name: 'X-Content-Type-Options Header Missing',
    risk: 'Low',
    description: "Without X-Content-Type-Options: nosniff, browsers may guess a response's type and run an uploaded or user-supplied file as a script or page.",
    solution: 'Send X-Content-Type-Options: nosniff.',
  },
  hsts: {
    id: '10035',
    name: 'Strict-Transport-Security Header Not Set',
    risk: 'Low',
    description: "Without Strict-Transport-Security, a visitor's first request may go over plain http, where an attacker on the network can read or change it and keep them off https.",
    solution: 'Send Strict-Transport-Security on every https response.',
  },
  httpOnly: {
    id: '10010',
    name: 'Cookie No HttpOnly Flag',
    risk: 'Low',
    description: "A cookie without the HttpOnly flag can be read by scripts on the page: an injected script can steal it, and with it the visitor's session if it is one.",
    solution: 'Set the HttpOnly flag on cookies scripts do not need.',
  },
  secure: {
    id: '10011',
    name: 'Cookie Without Secure Flag',
    risk: 'Low',
    description: 'A cookie without the Secure flag is also sent over plain http, where anyone on the network can read it.',
    solution: 'Set the Secure flag on cookies sent over https.',
  },
  sameSite: {
    id: '10054',
    name: 'Cookie without SameSite Attribute',
    risk: 'Low',
    description: 'A cookie without SameSite is sent with requests other sites trigger, which helps cross-site request forgery (CSRF).',
    solution: 'Set SameSite=Lax or Strict on every cookie.',
  },
  serverVersion: {
    id: '10036',
    name: 'Server Leaks Version Information via "Server" HTTP Response Header Field',
    risk: 'Low',
    description: 'The Server header names the software and its version: an attacker learns which known vulnerabilities to try without probing.',
    solution: 'Remove the version from the Server header (or the header itself).',
  },
  poweredBy: {
    id: '10037',
    name: 'Server Leaks Information via "X-Powered-By" HTTP Response Header Field(s)',
    risk: 'Low',
    description: 'The X-Powered-By header names the framework behind the site, which helps an attacker pick known vulnerabilities to try.',
    solution: 'Remove the X-Powered-By header.',
  },
  cors: {
    id: '10098',
    name: 'Cross-Domain Misconfiguration',
    risk: 'Medium',
    description: "Access-Control-Allow-Origin lets any website read these responses from a visitor's browser; for anything not public, that is a data leak.",
    solution: 'Allow only trusted origins in Access-Control-Allow-Origin, never * on authenticated content.',
  },
  mixedContent: {
    id: '10040',
    name: 'Secure Pages Include Mixed Content',
    risk: 'Medium',
    description: 'An https page loads resources over plain http: anyone on the network can read or replace them, and a replaced script controls the page.',
    solution: 'Load every resource of an https page over https.',
  },
  permissions: {
    id: '10063',
    name: 'Permissions Policy Header Not Set',
    risk: 'Low',
    description: 'No Permissions-Policy limits which browser features (camera, microphone, location ...) the page and the frames it embeds may ask for.',
    solution: 'Send a Permissions-Policy header that disables features the site does not use.',
  },
  errorDisclosure: {
    id: '90022',
    name: 'Application Error Disclosure',
    risk: 'Medium',
    description: 'The response shows an error with internal details (a stack trace or a database message) that tell an attacker how the application is built.',
    solution: 'Show a generic error page; log details on the server only.',
  },
  debugComments: {
    id: '10027',
    name: 'Information Disclosure - Suspicious Comments',
    risk: 'Informational',
    description: 'A comment in the served page mentions something meant to stay internal (a to-do, a bug, a password or a key).',
    solution: 'Remove comments that mention credentials, bugs or internals from served pages.',
  },
} as const satisfies Record<string, Rule>;

export const PASSIVE_RULE_IDS = Object.values(RULES).map((r) => r.id);

const STACK_TRACE = [
  /\bat [\w$.<>]+ \([^)]*:\d+:\d+\)/, // Node / JavaScript
  /Traceback \(most recent call last\)/, // Python
  /\bat [\w$.]+\([\w]+\.java:\d+\)/, // Java
  /(Fatal error|Warning|Parse error)<\/b>: .* on line <b>\d+/, // PHP
  /\b(SQLSTATE\[|ORA-\d{5}|You have an error in your SQL syntax|Microsoft OLE DB Provider)/, // databases
  /\bException in thread "|System\.\w+Exception:/, // JVM / .NET
];
const SUSPICIOUS_COMMENT = /<!--[^>]*\b(TODO|FIXME|BUG|HACK|password|passwd|secret|api[_-]?key)\b[^>]*-->/i;
const HTTP_SUBRESOURCE = /<(?:script|img|iframe|link|audio|video|source|embed|object)\b[^>]*\b(?:src|href|data)\s*=\s*["']?(http:\/\/[^"'\s>]+)/gi;

function finding(rule: Rule, url: string, extra: Omit<Finding, 'ruleId' | 'name' | 'risk' | 'url'> = {}): Finding {
  return { ruleId: rule.id, name: rule.name, risk: rule.risk, url, description: rule.description, solution: rule.solution, ...extra };
}

function cookieName(setCookie: string): string {
  return setCookie.split(';', 1)[0]?.split('=', 1)[0]?.trim() ?? '';
}

function hasAttribute(setCookie: string, attribute: string): boolean {
  return setCookie
    .split(';')
    .slice(1)
    .some((part) => part.trim().toLowerCase().split('=')[0] === attribute);
}

/** Every passive finding for one response of the target. */
export function passiveFindings(response: GuardedResponse): Finding[] {
  const { url, headers } = response;
  const https = url.startsWith('https:');
  const isHtml = (headers.get('content-type') ?? '').includes('text/html');
  const out: Finding[] = [];
  const csp = headers.get('content-security-policy');

  if (isHtml) {
    if (!csp) out.push(finding(RULES.csp, url));
    else if (/(^|[\s;])(default-src|script-src|style-src)[^;]*(\s\*(\s|;|$)|'unsafe-inline'|'unsafe-eval')/.test(csp)) {
      out.push(finding(RULES.cspWeak, url, { evidence: csp }));
    }
    if (!headers.get('x-frame-options') && !/frame-ancestors/i.test(csp ?? '')) out.push(finding(RULES.clickjacking, url));
    if (!headers.get('permissions-policy')) out.push(finding(RULES.permissions, url));
    if (https) {
      const insecure = [...response.body.matchAll(HTTP_SUBRESOURCE)].map((m) => m[1] ?? '');
      if (insecure.length > 0) out.push(finding(RULES.mixedContent, url, { evidence: insecure.slice(0, 5).join(' ') }));
    }
    const comment = SUSPICIOUS_COMMENT.exec(response.body);
    if (comment) out.push(finding(RULES.debugComments, url, { evidence: comment[0].slice(0, 200) }));
  }
  const nosniff = headers.get('x-content-type-options');
  if ((nosniff ?? '').toLowerCase() !== 'nosniff') out.push(finding(RULES.nosniff, url, nosniff === null ? {} : { evidence: `X-Content-Type-Options: ${nosniff}` }));
  if (https && !headers.get('strict-transport-security')) out.push(finding(RULES.hsts, url));

  for (const cookie of response.setCookies) {
    const param = cookieName(cookie);
    const evidence = `Set-Cookie: ${param}`;
    if (!hasAttribute(cookie, 'httponly')) out.push(finding(RULES.httpOnly, url, { param, evidence }));
    if (https && !hasAttribute(cookie, 'secure')) out.push(finding(RULES.secure, url, { param, evidence }));
    if (!hasAttribute(cookie, 'samesite')) out.push(finding(RULES.sameSite, url, { param, evidence }));
  }

  const server = headers.get('server');
  if (server && /\d/.test(server)) out.push(finding(RULES.serverVersion, url, { evidence: server }));
  const poweredBy = headers.get('x-powered-by');
  if (poweredBy) out.push(finding(RULES.poweredBy, url, { evidence: poweredBy }));
  const acao = headers.get('access-control-allow-origin');
  if (acao === '*' || acao === 'null') out.push(finding(RULES.cors, url, { evidence: `Access-Control-Allow-Origin: ${acao}` }));

  const trace = STACK_TRACE.map((re) => re.exec(response.body)).find(Boolean);
  if (trace) out.push(finding(RULES.errorDisclosure, url, { evidence: trace[0].slice(0, 200) }));
  return out;
}

/** The passive checks that applied to a response, in a reader's words: what the report says it judged. */
export function passiveChecksApplied(response: GuardedResponse): string[] {
  const https = response.url.startsWith('https:');
  const isHtml = (response.headers.get('content-type') ?? '').includes('text/html');
  return [
    ...(isHtml ? ['CSP', 'framing', 'Permissions-Policy', 'comments'] : []),
    ...(isHtml && https ? ['mixed content'] : []),
    'nosniff',
    ...(https ? ['HSTS'] : []),
    ...(response.setCookies.length ? [`cookie flags (${response.setCookies.length})`] : []),
    'version leaks',
    'CORS',
    'error disclosure',
  ];
}
