import type { z } from 'zod';
import type { ListOptions } from '../services/content/list.js';
import type { ListContentQuery } from './content.js';

/**
 * The list parameters as the API parses them (REST query, the CLI's local target), or as MCP
 * takes them (fieldFilters already an object, includeAuthorByline a boolean, either left out).
 */
export type ListContentParams = Partial<z.output<typeof ListContentQuery>>;

/**
 * The parsed list parameters as the content service's list options: the one mapping every door
 * uses for `list` and `listTrashed`, so no door can drop a parameter another honours.
 */
export function listOptions(q: ListContentParams): ListOptions {
  return {
    locale: q.locale,
    cursor: q.cursor,
    page: q.page,
    limit: q.limit,
    orderBy: q.orderBy,
    order: q.order,
    fieldFilters: q.fieldFilters,
    status: q.status,
    bylineId: q.bylineId,
    includeAuthorByline: q.includeAuthorByline,
    includeReferences: q.include === 'references',
    term: q.term,
  };
}
