/** `no_app`: no build uploaded for the test's platform; `no_appium_endpoint`: the client has no device provider set. */
export type MobileUiErrorCode = 'no_app' | 'no_appium_endpoint' | 'session_not_started';

/** Why a mobile UI test could not run. */
export class MobileUiError extends Error {
  readonly code: MobileUiErrorCode;
  constructor(code: MobileUiErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
