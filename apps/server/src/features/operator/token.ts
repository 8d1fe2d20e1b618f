import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from '../../lib/server-keys.ts';

export const OPERATOR_TOKEN_FILE = 'operator-token';
export const OPERATOR_TOKEN_PREFIX = 'fso_';

/** The operator token: OPERATOR_TOKEN, or created at first start in DATA_DIR/operator-token (mode 0600). */
export function loadOperatorToken(dataDir: string, fromEnv: string | undefined): string {
  return (
    fromEnv ??
    readOrCreateSecretFile(path.join(dataDir, OPERATOR_TOKEN_FILE), () => `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`)
  );
}
