// Any S3-compatible store, with real presigned POST: the store itself enforces the policy
// (exact key, 1 byte to 1 MB, expiry).
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { StoredObjectTooLargeError, type StorageDriver } from './storage-driver';

export interface S3Settings {
  bucket: string;
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
}

export function createS3Storage(settings: S3Settings): StorageDriver {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? {
          credentials: {
            accessKeyId: settings.accessKeyId,
            secretAccessKey: settings.secretAccessKey,
          },
        }
      : {}),
  });
  const Bucket = settings.bucket;

  return {
    kind: 's3',
    async presignPost(key, policy) {
      const { url, fields } = await createPresignedPost(client, {
        Bucket,
        Key: key,
        Conditions: [['content-length-range', policy.minBytes, policy.maxBytes]],
        Expires: policy.expiresInSeconds,
      });
      return { url, fields };
    },
    async read(key, maxBytes) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if ((object.ContentLength ?? 0) > maxBytes) {
          await object.Body?.transformToWebStream().cancel();
          throw new StoredObjectTooLargeError(key);
        }
        const bytes = await object.Body?.transformToByteArray();
        return bytes ?? new Uint8Array();
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') {
          return null;
        }
        throw error;
      }
    },
    async write(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType }),
      );
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key) {
            yield { key: object.Key, modifiedAt: object.LastModified ?? new Date(0) };
          }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async close() {
      client.destroy();
    },
  };
}
