import { z } from 'zod';

/**
 * How a suite logs in to the site it tests, declared once in its manifest (`login`). Values may name secrets as
 * `{{secret:name}}`: an operator sets each secret's value per client; a suite file never holds it.
 */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** `{{secret:name}}` inside a value; spaces inside the braces are allowed. */
export const SECRET_REFERENCE = /\{\{\s*secret:([^}]*?)\s*\}\}/g;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers a login may not set: they belong to the connection, not to a session. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'cookie']);

/** A value that may hold secret references; each must name a valid secret. */
const templated = z
  .string({ error: 'must be a string' })
  .max(4000)
  .superRefine((value, ctx) => {
    for (const m of value.matchAll(SECRET_REFERENCE)) {
      if (!SECRET_NAME_PATTERN.test(m[1]!)) {
        ctx.addIssue({ code: 'custom', message: `"${m[0]}" names no valid secret: a name is 1-64 letters, digits and . _ -` });
      }
    }
  });

/** Names (of headers, cookies) with a value each: every name valid as `problemOf` judges it, at least one. */
function namedValues(noun: string, problemOf: (name: string) => string | null) {
  return z
    .record(z.string(), templated)
    .superRefine((values, ctx) => {
      for (const name of Object.keys(values)) {
        const problem = problemOf(name);
        if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      }
    })
    .refine((v) => Object.keys(v).length > 0, { error: `name at least one ${noun}` });
}

/** A success URL written `/like this/i` must be a valid regular expression (anything else is a URL glob). */
function isValidUrlPattern(text: string): boolean {
  const m = /^\/(.+)\/([dgimsuy]*)$/.exec(text);
  if (!m) return true;
  try {
    new RegExp(m[1]!, m[2]);
    return true;
  } catch {
    return false;
  }
}

const formLogin = z.strictObject({
  type: z.literal('form'),
  /** The login page: a path on the site (`/login`) or a URL the target allows. */
  url: z.string().min(1, { error: 'must not be empty' }).max(2000),
  /** Fields to fill, in order: a CSS selector (or any Playwright selector) and the value to type. */
  fields: z
    .array(z.strictObject({ selector: z.string().min(1, { error: 'must not be empty' }).max(500), value: templated }))
    .min(1, { error: 'a form login fills at least one field' })
    .max(20),
  /** The control to click once the fields are filled. */
  submit: z.string().min(1, { error: 'must not be empty' }).max(500),
  /** What proves the login worked: the page's URL matches `url` (a Playwright URL glob, or a regular expression written /like this/), and/or `selector` appears. */
  success: z
    .strictObject({ url: z.string().min(1).max(2000).refine(isValidUrlPattern, { error: 'is not a valid regular expression' }).optional(), selector: z.string().min(1).max(500).optional() })
    .refine((s) => s.url !== undefined || s.selector !== undefined, { error: 'give a url pattern, a selector, or both' }),
  /** How long the login may take, page load to success (ms). */
  timeoutMs: z.number().int().min(1000).max(120_000).default(30_000),
});

const headerLogin = z.strictObject({
  type: z.literal('header'),
  /** Headers sent with every request, e.g. `{ "Authorization": "Bearer {{secret:token}}" }`. */
  headers: namedValues('header', (name) => {
    if (!HEADER_NAME.test(name)) return 'is not a valid header name';
    return RESERVED_HEADERS.has(name.toLowerCase()) ? 'cannot be set by a login (use "type": "cookie" for cookies)' : null;
  }),
});

const cookieLogin = z.strictObject({
  type: z.literal('cookie'),
  /** Cookies set for the site's host before every request, e.g. `{ "session": "{{secret:session}}" }`. */
  cookies: namedValues('cookie', (name) => (COOKIE_NAME.test(name) ? null : 'is not a valid cookie name')),
});

export const loginDeclaration = z.discriminatedUnion('type', [formLogin, headerLogin, cookieLogin], {
  error: 'must be one of form, header, cookie',
});
export type LoginDeclaration = z.output<typeof loginDeclaration>;

/** Every secret a declaration names, each once. */
export function secretNamesOf(login: LoginDeclaration): string[] {
  const values =
    login.type === 'form' ? login.fields.map((f) => f.value) : login.type === 'header' ? Object.values(login.headers) : Object.values(login.cookies);
  const names = new Set<string>();
  for (const v of values) for (const m of v.matchAll(SECRET_REFERENCE)) names.add(m[1]!);
  return [...names];
}
