import { hasUnsafeText } from '@fullstop/contracts';
import fp from 'fastify-plugin';
import { ValidationError } from '../../lib/errors.ts';

const MAX_DEPTH = 32;

/** The path of the first string (key or value) holding a NUL byte or a lone surrogate, or null. */
function unsafeAt(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return hasUnsafeText(value) ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (hasUnsafeText(key)) return at;
    const found = unsafeAt(child, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * A safety net under the contracts' `text()` helper: no path parameter, query value or JSON body string holding
 * a NUL byte or a lone surrogate reaches a handler, whatever its route's schema says (PostgreSQL refuses NUL in
 * text: without this a forgotten field is a 500). The answer names the field, like any validation error.
 */
export const inputGuard = fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      for (const [where, value] of [
        ['params', request.params],
        ['querystring', request.query],
        ['body', request.body],
      ] as const) {
        const field = unsafeAt(value, '');
        if (field !== null) {
          const name = field || where;
          throw new ValidationError(`${name} must not contain NUL bytes or unpaired surrogates`, name);
        }
      }
    });
  },
  { name: 'input-guard' },
);
