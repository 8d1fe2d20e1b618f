import { describe, expect, it } from 'vitest';
import { s3ConfigOf } from '../lib/artifact-store/index.ts';
import { ConfigError, loadEnv } from './env.ts';

const s3 = { ARTIFACT_STORE: 's3', S3_BUCKET: 'fullstop-artifacts', S3_ENDPOINT: 'http://127.0.0.1:9000' };

describe('artifact store settings', () => {
  it('keeps artifacts in the data directory unless told otherwise', () => {
    expect(loadEnv({}).ARTIFACT_STORE).toBe('data-dir');
  });

  it('refuses ARTIFACT_STORE=s3 without a bucket, naming S3_BUCKET', () => {
    expect(() => loadEnv({ ARTIFACT_STORE: 's3' })).toThrow(ConfigError);
    expect(() => loadEnv({ ARTIFACT_STORE: 's3' })).toThrow(/S3_BUCKET: is required with ARTIFACT_STORE=s3/);
    expect(() => loadEnv({ ...s3, S3_BUCKET: 'Not_A_Bucket' })).toThrow(/S3_BUCKET: must be a bucket name/);
  });

  it('refuses one credential without the other, naming the missing one and never echoing the other', () => {
    const onlyId = () => loadEnv({ ...s3, S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' });
    expect(onlyId).toThrow(/S3_SECRET_ACCESS_KEY: is required with the other S3 credential/);
    const onlySecret = () => loadEnv({ ...s3, S3_SECRET_ACCESS_KEY: 'super-secret-value' });
    expect(onlySecret).toThrow(/S3_ACCESS_KEY_ID: is required with the other S3 credential/);
    expect(onlySecret).not.toThrow(/super-secret-value/);
  });

  it('takes both credentials, or neither (the AWS chain), with path-style addressing on a custom endpoint', () => {
    const config = s3ConfigOf(loadEnv({ ...s3, S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret', S3_PREFIX: '/team-a/' }));
    expect(config).toMatchObject({ bucket: 'fullstop-artifacts', forcePathStyle: true, prefix: 'team-a/', region: 'us-east-1' });
    expect(s3ConfigOf(loadEnv({ ARTIFACT_STORE: 's3', S3_BUCKET: 'fullstop-artifacts' }))).toMatchObject({ forcePathStyle: false, prefix: '', accessKeyId: undefined });
  });
});
