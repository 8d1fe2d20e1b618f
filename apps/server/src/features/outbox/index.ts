// The outbox feature's face: what other features may use of it. Everything else in this folder is its own.
export { AnswerError, type AttemptOutcome, DeliveryOutbox, deliveryStateOf, problemOf, UndeliverableError } from './outbox.ts';
export { listAttempts } from './repository.ts';
