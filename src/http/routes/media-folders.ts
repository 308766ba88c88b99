import {
  FolderBody,
  FolderDeleted,
  FolderList,
  FolderSchema,
  ListFoldersQuery,
  MediaIdParams,
} from '../../schemas/media.js';
import { type Api, op } from '../op.js';

/** Folders of the media library. Registered before `/media/{id}` so `folders` is never read as an ID. */
export function mediaFolderRoutes(api: Api): void {
  const tags = ['Media'];
  op(
    api,
    {
      method: 'get',
      path: '/media/folders',
      operationId: 'listMediaFolders',
      summary: 'List folders (by name) with their item counts',
      tags,
      query: ListFoldersQuery,
      response: FolderList,
    },
    async ({ actor, services, query }) => services.media.folders.list(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/media/folders',
      operationId: 'createMediaFolder',
      summary: 'Create a folder',
      tags,
      body: FolderBody,
      response: FolderSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.media.folders.create(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: '/media/folders/{id}',
      operationId: 'getMediaFolder',
      summary: 'Get a folder',
      tags,
      params: MediaIdParams,
      response: FolderSchema,
    },
    async ({ actor, services, params }) => services.media.folders.get(actor, params.id),
  );
  op(
    api,
    {
      method: 'put',
      path: '/media/folders/{id}',
      operationId: 'updateMediaFolder',
      summary: 'Rename a folder',
      tags,
      params: MediaIdParams,
      body: FolderBody,
      response: FolderSchema,
    },
    async ({ actor, services, params, body }) => services.media.folders.update(actor, params.id, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/media/folders/{id}',
      operationId: 'deleteMediaFolder',
      summary: 'Delete a folder; its items return to the Main library unchanged',
      tags,
      params: MediaIdParams,
      response: FolderDeleted,
    },
    async ({ actor, services, params }) => services.media.folders.remove(actor, params.id),
  );
}
