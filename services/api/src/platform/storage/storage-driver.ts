/** What the browser needs to upload one file: POST `fields` then the file, as multipart, to `url`. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export interface UploadPolicy {
  minBytes: number;
  maxBytes: number;
  expiresInSeconds: number;
}

/** What the local upload endpoint says when it refuses an upload; the module that owns uploads words it. */
export interface UploadMessages {
  /** A form that is not a well-formed upload, or a policy whose signature or key does not hold. */
  refused: string;
  expired: string;
  /** The link was used already. */
  used: string;
  /** A newer link replaced this one, or its file was refused. */
  released: string;
  tooLarge: string;
  empty: string;
}

export interface StoredObject {
  key: string;
  modifiedAt: Date;
}

export class StoredObjectTooLargeError extends Error {
  constructor(readonly key: string) {
    super(`stored object ${key} is larger than allowed`);
    this.name = 'StoredObjectTooLargeError';
  }
}

/**
 * Where uploaded files and converted PDFs live. Local disk by default (the API serves the
 * presigned-POST endpoint itself), or any S3-compatible store.
 */
export interface StorageDriver {
  readonly kind: 'local' | 's3';
  presignPost(key: string, policy: UploadPolicy): Promise<PresignedPost>;
  /** The object's bytes, null when it does not exist; StoredObjectTooLargeError past maxBytes. */
  read(key: string, maxBytes: number): Promise<Uint8Array | null>;
  write(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (a folder, ending in `/`), with when it was last written. */
  list(prefix: string): AsyncIterable<StoredObject>;
  close(): Promise<void>;
}

// The store holds whatever keys the modules build (boot hands it nothing about them); it only
// refuses a key that could climb out of its root: path segments of letters, digits, `_` and `-`,
// the last one with at most one extension.
const KEY_PATTERN = /^(?:[A-Za-z0-9_-]{1,100}\/){1,8}[A-Za-z0-9_-]{1,100}(?:\.[a-z0-9]{1,8})?$/;

export function isValidStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
