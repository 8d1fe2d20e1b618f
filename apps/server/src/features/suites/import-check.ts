import type { FastifyBaseLogger } from 'fastify';
import type { EngineDeps } from '../engine/index.ts';
import { cloudDevicesNotOffered } from '../mobile-devices/index.ts';
import { runTargetFor } from '../targets/index.ts';
import type { ImportCheck } from './suite-service.ts';

/**
 * An operator's import (the CLI's JSON, the console's upload): a cloud device the client's device cloud does not offer
 * is refused with the suite's other issues, not found at the first run (issue 44). The provider's list is asked
 * through the client's target policy, as a run asks it.
 */
export function operatorImportCheck(deps: EngineDeps, clientId: string, log: FastifyBaseLogger): ImportCheck {
  return async (tests) => {
    const { allowPrivateAddresses } = await runTargetFor(deps, clientId);
    return cloudDevicesNotOffered(deps.db, deps.keys, clientId, tests, { allowPrivate: allowPrivateAddresses, log: (message, data) => log.warn(data ?? {}, message) });
  };
}
