import { z } from 'zod';
import { getSettings, updateSettings } from '../../operations/settings.js';
import { SettingsUpdateBody } from '../../schemas/settings.js';
import { READ, type ToolDef, toolOf, WRITE } from '../registry.js';

export const settingsTools: ToolDef[] = [
  toolOf(getSettings, {
    name: 'settings_get',
    title: 'Get Site Settings',
    description: 'The site settings: title, tagline, logo, favicon, time zone, site URL and SEO defaults.',
    annotations: READ,
    input: z.object({}),
    toArgs: () => ({}),
  }),
  toolOf(updateSettings, {
    name: 'settings_update',
    title: 'Update Site Settings',
    description:
      'Change site settings: only the ones sent change, null resets one to its default. logo, favicon and seo.defaultOgImage take media IDs; timezone an IANA name.',
    annotations: WRITE,
    input: SettingsUpdateBody,
    toArgs: (a) => ({ body: a }),
  }),
];
