import { migration001 } from './001_core.js';
import { migration002 } from './002_content.js';
import { migration003 } from './003_identity.js';
import { migration004 } from './004_oauth.js';
import { migration005 } from './005_schedules.js';
import { migration006 } from './006_hardening.js';
import { migration007 } from './007_media.js';
import { migration008 } from './008_structure.js';
import { migration009 } from './009_search.js';
import { migration010 } from './010_public.js';
import { migration012 } from './012_usage.js';
import { migration015 } from './015_null_order.js';
import { migration016 } from './016_media_import_key.js';
import { migration017 } from './017_transfer.js';
import { migration018 } from './018_login_providers.js';
import { migration019 } from './019_provider_storage.js';
import { migration020 } from './020_media_focal_point.js';
import type { Migration } from './types.js';

/** Every migration, in order. Append only; never edit one that has shipped. */
export const migrations: Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration012,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
];
