import {
  createMediaFolder,
  deleteMediaFolder,
  getMediaFolder,
  listMediaFolders,
  updateMediaFolder,
} from '../../operations/media.js';
import { type Api, route } from '../op.js';

/** Folders of the media library. Registered before `/media/{id}` so `folders` is never read as an ID. */
export function mediaFolderRoutes(api: Api): void {
  const tags = ['Media'];
  route(api, {
    operation: listMediaFolders,
    method: 'get',
    path: '/media/folders',
    summary: 'List folders (by name) with their item counts',
    tags,
  });
  route(api, {
    operation: createMediaFolder,
    method: 'post',
    path: '/media/folders',
    summary: 'Create a folder',
    tags,
    status: 201,
  });
  route(api, { operation: getMediaFolder, method: 'get', path: '/media/folders/{id}', summary: 'Get a folder', tags });
  route(api, {
    operation: updateMediaFolder,
    method: 'put',
    path: '/media/folders/{id}',
    summary: 'Rename a folder',
    tags,
  });
  route(api, {
    operation: deleteMediaFolder,
    method: 'delete',
    path: '/media/folders/{id}',
    summary: 'Delete a folder; its items return to the Main library unchanged',
    tags,
  });
}
