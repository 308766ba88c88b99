import type { Storage } from '../../storage/types.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { FileStore } from './files.js';
import type { OperationStore } from './operations.js';

/** What the parts of the transfer service are built from. */
export interface TransferDeps {
  ctx: ServiceContext;
  schema: SchemaService;
  storage: Storage;
  ops: OperationStore;
  files: FileStore;
}
