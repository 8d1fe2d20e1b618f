import fp from 'fastify-plugin';
import { type Env, publicUrl } from '../../config/env.ts';
import type { RawDatabase } from '../../db/database.ts';
import { ConflictError } from '../../lib/errors.ts';
import { findUserByEmail, hasAnyClient } from '../accounts/index.ts';
import { createClient, createUser, normaliseEmail } from '../accounts/index.ts';

export const DEMO_CLIENT_NAME = 'Fullstop Demo';

/**
 * The demo user's password is published (README), so the demo is only on by default where a fresh install is
 * tried out: the embedded database. With PostgreSQL (DATABASE_URL, a real deployment) it needs FULLSTOP_DEMO=1;
 * FULLSTOP_DEMO=0 turns it off everywhere.
 */
export function demoEnabled(env: Pick<Env, 'FULLSTOP_DEMO'>, kind: RawDatabase['kind']): boolean {
  return env.FULLSTOP_DEMO ?? kind === 'pglite';
}

/**
 * A first start with no client creates a demo client (testing the product's own site) and a demo user, so a
 * fresh install can be tried at once. `app.demoClientId` is the demo client's id, or null.
 */
export const demo = fp(async (app) => {
  let demoClientId: string | null = null;
  const { env } = app;
  if (demoEnabled(env, app.database.kind)) {
    if (app.database.kind === 'postgres') {
      app.log.warn('FULLSTOP_DEMO=1 on PostgreSQL: the demo user, whose password is published, can log in');
    }
    const email = normaliseEmail(env.FULLSTOP_DEMO_EMAIL);
    const existing = await findUserByEmail(app.db, email);
    if (existing) {
      demoClientId = existing.clientId;
    } else if (!(await hasAnyClient(app.db))) {
      try {
        const { clientId } = await createClient(app.db, app.keys, { name: DEMO_CLIENT_NAME, website: publicUrl(env) });
        await createUser(app.db, { email, password: env.FULLSTOP_DEMO_PASSWORD, username: 'demo', clientId, teamRole: 'owner' });
        demoClientId = clientId;
        app.log.info({ email }, 'created the demo client and its user');
      } catch (err) {
        // Another API process starting at the same time created the demo user first.
        if (!(err instanceof ConflictError)) throw err;
      }
    }
  }
  app.decorate('demoClientId', demoClientId);
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The demo client's id when the demo is on, else null. */
    demoClientId: string | null;
  }
}
