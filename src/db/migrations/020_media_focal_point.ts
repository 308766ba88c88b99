import type { Migration } from './types.js';

/**
 * The focal point of a media item: where its subject is, as fractions of the displayed width
 * and height (0 to 1, EXIF orientation applied), both set or both null (the centre). Responsive
 * image crops (`fit=cover`) keep it in the frame. Part of the item's record, so a site package
 * carries it; the derivatives it shapes are not (they are rebuilt on demand).
 */
export const migration020: Migration = {
  name: '020_media_focal_point',
  async up(db) {
    // double precision on both engines: PostgreSQL's `real` would read 0.3 back as 0.30000001192092896.
    await db.schema.alterTable('_cms_media').addColumn('focal_x', 'double precision').execute();
    await db.schema.alterTable('_cms_media').addColumn('focal_y', 'double precision').execute();
  },
};
