// The evidence feature's face: what other features may use of it. Everything else in this folder is its own.
export { listEvidence, objectInside } from './evidence-files.ts';
export { EVIDENCE_LINK_TTL_SECONDS, evidenceFileUrl } from './evidence-token.ts';
