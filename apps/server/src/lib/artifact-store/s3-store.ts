import type { ArtifactStore } from './artifact-store.ts';
import type { S3Config } from './index.ts';

const pending = (): never => {
  throw new Error('ARTIFACT_STORE=s3 is not available yet');
};

/** S3-compatible object storage (@aws-sdk/client-s3). Placeholder until the implementation lands. */
export class S3Store implements ArtifactStore {
  readonly kind = 's3';
  constructor(readonly config: S3Config) {}
  put = pending;
  putFile = pending;
  putDir = pending;
  get = pending;
  stat = pending;
  download = pending;
  list = pending;
  delete = pending;
  deletePrefix = pending;
  localPath = (): null => null;
  check = async (): Promise<void> => pending();
}
