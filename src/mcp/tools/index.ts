import type { ToolDef } from '../registry.js';
import { bylineTools } from './bylines.js';
import { checkTools } from './check.js';
import { contentTools } from './content.js';
import { mediaTools } from './media.js';
import { mediaUsageTools } from './media-usage.js';
import { menuTools } from './menus.js';
import { revisionTools } from './revisions.js';
import { schemaTools } from './schema.js';
import { searchTools } from './search.js';
import { settingsTools } from './settings.js';
import { taxonomyTools } from './taxonomies.js';
import { transferTools } from './transfer.js';

/** Every core tool, in tools/list order. Later domains add their arrays here. */
export const coreTools: ToolDef[] = [
  ...contentTools,
  ...bylineTools,
  ...schemaTools,
  ...mediaTools,
  ...mediaUsageTools,
  ...taxonomyTools,
  ...menuTools,
  ...revisionTools,
  ...settingsTools,
  ...searchTools,
  ...transferTools,
  ...checkTools,
];
