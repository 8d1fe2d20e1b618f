import { eq } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { publicUrl } from '../../config/env.ts';
import { users } from '../../db/schema/index.ts';
import { countClients, createClient, createUser, normaliseEmail } from '../accounts/service.ts';

export const DEMO_CLIENT_NAME = 'Fullstop Demo';

/**
 * On the embedded database, a first start with no client creates a demo client (testing the product's own
 * site) and a demo user, so a fresh install can be tried at once. FULLSTOP_DEMO=0 turns it off; it never runs
 * on PostgreSQL. `app.demoClientId` is the demo client's id, or null.
 */
export const demo = fp(async (app) => {
  let demoClientId: string | null = null;
  const { env } = app;
  if (env.FULLSTOP_DEMO && app.database.kind === 'pglite') {
    const email = normaliseEmail(env.FULLSTOP_DEMO_EMAIL);
    const [existing] = await app.db.select({ clientId: users.clientId }).from(users).where(eq(users.email, email)).limit(1);
    if (existing) {
      demoClientId = existing.clientId;
    } else if ((await countClients(app.db)) === 0) {
      const { clientId } = await createClient(app.db, app.keys, { name: DEMO_CLIENT_NAME, website: publicUrl(env) });
      await createUser(app.db, { email, password: env.FULLSTOP_DEMO_PASSWORD, username: 'demo', clientId });
      demoClientId = clientId;
      app.log.info({ email }, 'created the demo client and its user');
    }
  }
  app.decorate('demoClientId', demoClientId);
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The demo client's id when the demo is on (embedded database), else null. */
    demoClientId: string | null;
  }
}
