import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import { createLocalStorage } from './local-storage';
import type { StorageDriver } from './storage-driver';

/** S3 when S3_BUCKET is set, otherwise local disk under DATA_DIR/blobs. */
export async function createStorage(
  config: Config,
  signingKey: Buffer,
  clock: Clock,
  /** The local driver's upload endpoint (boot's localUploadRoute); S3 presigns its own. */
  uploadUrl?: string,
): Promise<StorageDriver> {
  // The AWS SDK (~0.1 s to load) only when S3 is configured.
  if (config.s3) return (await import('./s3-storage')).createS3Storage(config.s3);
  return createLocalStorage({ dataDir: config.dataDir, signingKey, clock, uploadUrl });
}
