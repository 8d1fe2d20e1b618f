/**
 * Typed engine errors with a stable `code`, so the server maps them to responses and logs without matching strings.
 */
export class ValidationError extends Error {
  readonly code = 'validation_error';
  /** The suite file at fault, when the error comes from a suite folder. */
  readonly file?: string;
  /** Dotted path of the field at fault, e.g. `options.pages.0`. */
  readonly field: string;
  readonly reason: string;

  constructor(details: { field: string; reason: string; file?: string }) {
    const where = details.file ? `${details.file}: ` : '';
    super(`${where}${details.field}: ${details.reason}`);
    this.name = 'ValidationError';
    this.field = details.field;
    this.reason = details.reason;
    if (details.file !== undefined) this.file = details.file;
  }
}

/** A test tried to reach an address its target does not allow (another origin, or a private address). */
export class TargetPolicyError extends Error {
  readonly code = 'target_policy';
  readonly url: string;

  constructor(url: string, reason: string) {
    super(`${url} is not allowed: ${reason}`);
    this.name = 'TargetPolicyError';
    this.url = url;
  }
}

/** The run was cancelled through its AbortSignal (time limit or a user action). */
export class RunAbortedError extends Error {
  readonly code = 'aborted';

  constructor(message = 'the run was cancelled') {
    super(message);
    this.name = 'RunAbortedError';
  }
}

/**
 * A program or package the run needs is not installed (lib/engines.ts). The message says which, where it was
 * looked for and how to install it; another attempt would not change it.
 */
export class EngineMissingError extends Error {
  readonly code = 'engine_missing';
  readonly engine: string;

  constructor(engine: string, message: string) {
    super(message);
    this.name = 'EngineMissingError';
    this.engine = engine;
  }
}

/** The suite's login did not succeed (the form's success condition never held, a secret was refused...). */
export class LoginFailedError extends Error {
  readonly code = 'login_failed';

  constructor(message: string) {
    super(message);
    this.name = 'LoginFailedError';
  }
}
