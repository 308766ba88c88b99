import type { Actor } from '../../../auth/actor.js';
import type { ContentService } from '../../content/index.js';
import type { ServiceContext } from '../../context.js';
import type { MenuService } from '../../menus/index.js';
import type { SchemaService } from '../../schema/index.js';
import type { SectionService } from '../../sections/index.js';
import type { TaxonomyService } from '../../taxonomies/index.js';

/** The services an import writes through, and who is importing into which locale. */
export interface ImportDeps {
  ctx: ServiceContext;
  schema: SchemaService;
  content: ContentService;
  taxonomies: TaxonomyService;
  menus: MenuService;
  sections: SectionService;
}

export interface RunScope {
  actor: Actor;
  locale: string;
  now: string;
}
