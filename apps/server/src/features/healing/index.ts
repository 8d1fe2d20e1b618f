// The healing feature's face: what other features may use of it. Everything else in this folder is its own.
export { prepareHealingFingerprints, proposeHealsOfRun, recordFingerprints, removeHealingFingerprints } from './engine-hooks.ts';
export { deleteOldFingerprints } from './repository.ts';
export { anyHealed } from './heals-of.ts';
export { runHealsOf } from './service.ts';
