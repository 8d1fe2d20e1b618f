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

/** What a person should read about a failed call: the server's message, its text, or the error's own. */
export function describeError(error: unknown): string {
  if (error instanceof HttpError) return error.serverMessage ?? (error.responseText || error.message);
  if (error instanceof Error) return error.message;
  return String(error);
}
