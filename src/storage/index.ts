import type { StorageConfig } from '../core/config-media.js';
import { FileStorage } from './file.js';
import { S3Storage } from './s3.js';
import type { Storage } from './types.js';

export type { ByteRange, ObjectHeaders, ObjectInfo, ReadResult, Storage, UploadTarget } from './types.js';
export { DERIVED_KEY, STORAGE_KEY } from './types.js';

/** The configured store: the file system by default, or an S3-compatible bucket. */
export function createStorage(config: StorageConfig): Storage {
  return config.kind === 's3' ? new S3Storage(config) : new FileStorage(config.root);
}
