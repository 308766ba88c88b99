import { getSettings, updateSettings } from '../../operations/settings.js';
import { type Api, route } from '../op.js';

/** Site settings: Editors read, Admins change (operations: operations/settings.ts). */
export function settingsRoutes(api: Api): void {
  const tags = ['Settings'];
  route(api, { operation: getSettings, method: 'get', path: '/settings', summary: 'Get the site settings', tags });
  route(api, {
    operation: updateSettings,
    method: 'put',
    path: '/settings',
    summary: 'Change site settings (only the ones sent; null resets one to its default)',
    tags,
  });
}
