// The bugs feature's face: what other features may use of it. Everything else in this folder is its own.
export { bugService, callerOf } from './service.ts';
export type { BugService, Caller as BugCaller } from './service.ts';
export type { EvidenceSource } from './prefill.ts';
export { isAttachmentType, storeUpload, uploadKind, wrongType } from './attachments.ts';
