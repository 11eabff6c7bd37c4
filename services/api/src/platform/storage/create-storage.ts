import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';
import type { StorageDriver } from './storage-driver';

/** S3 when S3_BUCKET is set, otherwise local disk under DATA_DIR/blobs. */
export function createStorage(config: Config, signingKey: Buffer, clock: Clock): StorageDriver {
  if (config.s3) return createS3Storage(config.s3);
  return createLocalStorage({ dataDir: config.dataDir, signingKey, clock });
}
