import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Run from the TypeScript source this file is src/lib/server-dir.ts; in the bundle it is a chunk in dist/. */
const fromSource = import.meta.url.endsWith('.ts');

/**
 * apps/server, whether the server runs from its source or from its bundle (apps/server/dist, flat): the files it
 * reads at run time (migrations, the web app's build, the demo suite, the CI kit) are found from here, never from
 * the place of the module that reads them, which the bundle moves.
 */
export const SERVER_DIR = path.resolve(fileURLToPath(import.meta.url), fromSource ? '../../..' : '../..');
