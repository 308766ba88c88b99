import { z } from 'zod';
import { SettingsSchema, SettingsUpdateBody } from '../../schemas/settings.js';
import { READ, type ToolDef, tool, WRITE } from '../registry.js';

export const settingsTools: ToolDef[] = [
  tool({
    name: 'settings_get',
    title: 'Get Site Settings',
    description: 'The site settings: title, tagline, logo, favicon, time zone, site URL and SEO defaults.',
    scope: 'settings:read',
    annotations: READ,
    input: z.object({}),
    output: SettingsSchema,
    run: ({ services, actor }) => services.settings.get(actor),
  }),
  tool({
    name: 'settings_update',
    title: 'Update Site Settings',
    description:
      'Change site settings: only the ones sent change, null resets one to its default. logo, favicon and seo.defaultOgImage take media IDs; timezone an IANA name.',
    scope: 'settings:manage',
    annotations: WRITE,
    input: SettingsUpdateBody,
    output: SettingsSchema,
    run: ({ services, actor }, a) => services.settings.update(actor, a),
  }),
];
