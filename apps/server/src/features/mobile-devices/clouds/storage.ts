import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { OutboundUnreachableError, type OutboundStreamBody, outboundRequest } from '../../../lib/outbound-http.ts';

// A client's build into a cloud provider's app storage, through the provider's REST API (issue 28, decision 0084):
// BrowserStack App Automate `POST /app-automate/upload` (multipart `file`) answers `app_url` (`bs://…`); Sauce Labs
// `POST /v1/storage/upload` (multipart `payload` and `name`) answers `item.id`, used as `storage:<id>`. Both take
// HTTP basic auth with the account's user name and access key. The file is streamed, never read whole.

export type CloudKind = 'browserstack' | 'saucelabs';

const USER_AGENT = 'FullstopQA-MobileDevices';
/** An upload of up to 1 GB (BrowserStack's limit) takes minutes; the deadline is the whole call's. */
export const CLOUD_UPLOAD_DEADLINE_MS = 15 * 60_000;

const PROVIDER_NAMES: Record<CloudKind, string> = { browserstack: 'BrowserStack', saucelabs: 'Sauce Labs' };

/**
 * The upload could not give an app id. `code` is the engine's error code: `validation_error` (the credentials were
 * refused, or the provider refused the build) is not retried; anything else (unreachable, 5xx) is.
 */
export class CloudStorageError extends Error {
  constructor(
    message: string,
    readonly code?: 'validation_error',
  ) {
    super(message);
    this.name = 'CloudStorageError';
  }
}

export interface CloudAccount {
  kind: CloudKind;
  /** The REST API base, e.g. `https://api-cloud.browserstack.com`. */
  apiUrl: string;
  username: string;
  accessKey: string;
}

/** The hex sha256 of a file, read as a stream. */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** A multipart/form-data body of text fields and one file part, streamed from the file. */
async function multipartBody(fields: Record<string, string>, part: { field: string; filename: string; file: string }): Promise<{ body: OutboundStreamBody; contentType: string }> {
  const boundary = `----FullstopQA${randomBytes(12).toString('hex')}`;
  const quoted = (v: string) => v.replace(/["\r\n\\]/g, '_');
  let head = '';
  for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(part.field)}"; filename="${quoted(part.filename)}"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  const headBytes = Buffer.from(head, 'utf8');
  const tailBytes = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const { size } = await stat(part.file);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: {
      length: headBytes.length + size + tailBytes.length,
      stream: () =>
        Readable.from(
          (async function* () {
            yield headBytes;
            yield* createReadStream(part.file);
            yield tailBytes;
          })(),
        ),
    },
  };
}

/**
 * Uploads the build to the account's app storage and returns the id the provider's `appium:app` takes. Through the
 * target policy and its deadline, like every call to an address we were given.
 */
export async function uploadToCloud(account: CloudAccount, build: { file: string; filename: string }, allowPrivate: boolean): Promise<string> {
  const name = PROVIDER_NAMES[account.kind];
  const base = account.apiUrl.replace(/\/+$/, '');
  const url = account.kind === 'browserstack' ? `${base}/app-automate/upload` : `${base}/v1/storage/upload`;
  const { body, contentType } =
    account.kind === 'browserstack'
      ? await multipartBody({}, { field: 'file', filename: build.filename, file: build.file })
      : await multipartBody({ name: build.filename }, { field: 'payload', filename: build.filename, file: build.file });
  let res;
  try {
    res = await outboundRequest(url, {
      method: 'POST',
      allowPrivate,
      userAgent: USER_AGENT,
      deadlineMs: CLOUD_UPLOAD_DEADLINE_MS,
      headers: { 'content-type': contentType, authorization: `Basic ${Buffer.from(`${account.username}:${account.accessKey}`).toString('base64')}` },
      body,
    });
  } catch (err) {
    if (err instanceof OutboundUnreachableError) throw new CloudStorageError(`the build could not be uploaded to ${name} (${url}): ${err.message}`);
    throw err;
  }
  if (res.status === 401 || res.status === 403) {
    throw new CloudStorageError(`${name} refused the user name and access key (${res.status}) when the build was uploaded: an operator must check the client’s device provider`, 'validation_error');
  }
  const said = (res.json<{ error?: unknown; message?: unknown; detail?: unknown }>() ?? {}) as { error?: unknown; message?: unknown; detail?: unknown };
  const reason = [said.error, said.message, said.detail].find((v) => typeof v === 'string' && v) as string | undefined;
  if (res.status >= 400 && res.status < 500) throw new CloudStorageError(`${name} refused the build (${res.status})${reason ? `: ${reason.slice(0, 300)}` : ''}`, 'validation_error');
  if (res.status !== 200 && res.status !== 201) throw new CloudStorageError(`${name} answered ${res.status} to the build’s upload${reason ? `: ${reason.slice(0, 300)}` : ''}`);
  if (account.kind === 'browserstack') {
    const appUrl = res.json<{ app_url?: unknown }>()?.app_url;
    if (typeof appUrl === 'string' && appUrl.startsWith('bs://')) return appUrl;
  } else {
    const id = res.json<{ item?: { id?: unknown } }>()?.item?.id;
    if (typeof id === 'string' && id) return `storage:${id}`;
  }
  throw new CloudStorageError(`${name} answered the build’s upload without an app id`);
}
