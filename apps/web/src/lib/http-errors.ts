/** The server answered with a status outside 2xx. `serverMessage` is its `{ message }`, when it sent one. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly serverMessage: string | null,
    readonly responseText: string,
  ) {
    super(serverMessage ?? (responseText || `Request failed with status ${status}`));
  }
}

/** The request never got an answer: offline, DNS, connection reset, CORS. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(cause?: unknown) {
    super('Network error', { cause });
  }
}

export async function toHttpError(res: Response): Promise<HttpError> {
  const text = await res.text().catch(() => '');
  let message: string | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
      message = (parsed as { message: string }).message;
    }
  } catch {
    // Not JSON: the text itself is what the server said.
  }
  return new HttpError(res.status, message, text);
}

/**
 * The one way a failed call becomes text for a person. Without `generic`: the server's message, its response
 * text, or the error's own message (a store's plain `{ message }` failure included). With `generic`: only a
 * server's own message is shown, and anything else (no answer, a proxy's error page) reads as `generic`.
 */
export function describeError(error: unknown, generic?: string): string {
  if (error instanceof HttpError) {
    if (error.serverMessage) return error.serverMessage;
    return generic ?? (error.responseText || error.message);
  }
  if (generic !== undefined) return generic;
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return String(error);
}
