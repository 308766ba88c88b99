import type { ToolDef } from '../registry.js';
import { bylineTools } from './bylines.js';
import { contentTools } from './content.js';
import { revisionTools } from './revisions.js';
import { schemaTools } from './schema.js';

/** Every core tool, in tools/list order. Later domains add their arrays here. */
export const coreTools: ToolDef[] = [...contentTools, ...bylineTools, ...schemaTools, ...revisionTools];
