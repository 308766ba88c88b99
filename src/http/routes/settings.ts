import { SettingsSchema, SettingsUpdateBody } from '../../schemas/settings.js';
import { type Api, op } from '../op.js';

/** Site settings: Editors read, Admins change. */
export function settingsRoutes(api: Api): void {
  const tags = ['Settings'];
  op(
    api,
    {
      method: 'get',
      path: '/settings',
      operationId: 'getSettings',
      summary: 'Get the site settings',
      tags,
      response: SettingsSchema,
    },
    async ({ actor, services }) => services.settings.get(actor),
  );
  op(
    api,
    {
      method: 'put',
      path: '/settings',
      operationId: 'updateSettings',
      summary: 'Change site settings (only the ones sent; null resets one to its default)',
      tags,
      body: SettingsUpdateBody,
      response: SettingsSchema,
    },
    async ({ actor, services, body }) => services.settings.update(actor, body),
  );
}
