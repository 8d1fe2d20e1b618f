// The uploads feature's face: what other features may use of it. Everything else in this folder is its own.
export { currentBuild } from './repository.ts';
export { uploadedAppKey } from './storage.ts';
