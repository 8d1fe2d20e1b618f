// The accounts feature's face: what other features may use of it. Everything else in this folder is its own.
export {
  clientEmails,
  countUsersByClient,
  findClient,
  findUserByEmail,
  findUserById,
  getClient,
  hasAnyClient,
  listClients,
  operatorEmails,
  operatorName,
  setCurrentApp,
  setPasswordHash,
  userName,
} from './repository.ts';
export type { UserRow } from './repository.ts';
export { createClient, createClientWithUser, createUser, normaliseEmail } from './service.ts';
export { findClientIdByApiKey, readApiKey, replaceApiKey } from './api-key-repository.ts';
