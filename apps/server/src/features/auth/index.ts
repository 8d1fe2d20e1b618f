// The auth feature's face: what other features may use of it. Everything else in this folder is its own.
export { assertClientAccess, authGuard, ownClientId } from './guard.ts';
export type { Principal } from './guard.ts';
export { noStore } from './no-store.ts';
export { authDepsOf, requestCaller, startLogin } from './service.ts';
export type { AuthDeps, Caller } from './service.ts';
export type { SessionService } from './session-service.ts';
export { giveBack } from './throttle-repository.ts';
export { takeAttempt, throttleMessage } from './throttle.ts';
