import { SettingsSchema, SettingsUpdateBody } from '../schemas/settings.js';
import { operation } from './operation.js';

/** The site settings operations (MCP settings_*): Editors read them, Admins change them. */
export const getSettings = operation({
  id: 'getSettings',
  output: SettingsSchema,
  writes: false,
  scope: 'settings:read',
  run: ({ services, actor }) => services.settings.get(actor),
});

export const updateSettings = operation({
  id: 'updateSettings',
  body: SettingsUpdateBody,
  output: SettingsSchema,
  writes: true,
  scope: 'settings:manage',
  run: ({ services, actor }, { body }) => services.settings.update(actor, body),
});
