import { checkSlug } from '../content/slugs.js';
import { checkPortableText } from '../rich-text.js';
import {
  fitted,
  jsonColumn,
  refuse,
  ruleProblem,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
  storedInstants,
} from '../stored-record.js';
import { SECTION_RULES } from './rules.js';

export const SECTION_NORMALISED = 'section_normalised';

/**
 * A section from elsewhere (a site package), judged by the rules a section
 * write applies: a slug, a title and description within their limits, and
 * Portable Text content checked as a portableText field's (link marks follow
 * the url rules: no `javascript:` or `data:` hrefs). The title is stored
 * trimmed, the slug in NFC and the content as the check returns it; a change
 * is reported as `section_normalised`.
 */
export function storedSection(row: StoredRow): StoredVerdict {
  const slug = ruleProblem(() => checkSlug(String(row.slug)));
  if (slug) return refuse(row, slug);
  const title = schemaVerdict(SECTION_RULES.title, row.title, 'title');
  if (!title.ok) return refuse(row, title.problem);
  const described = schemaVerdict(SECTION_RULES.description, row.description ?? null, 'description');
  if (!described.ok) return refuse(row, described.problem);
  const parsed = jsonColumn(row, 'content');
  if (!parsed.ok) return refuse(row, parsed.problem);
  if (!Array.isArray(parsed.value) || parsed.value.length > SECTION_RULES.maxBlocks) {
    return refuse(row, `content must be a list of at most ${SECTION_RULES.maxBlocks} Portable Text blocks`);
  }
  let content: unknown[] = [];
  const problem = ruleProblem(() => {
    content = checkPortableText(parsed.value, ['content']);
  });
  if (problem) return refuse(row, problem);
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(
    row,
    {
      ...row,
      slug: checkSlug(String(row.slug)),
      title: title.value,
      content: JSON.stringify(content),
      ...instants.values,
    },
    SECTION_NORMALISED,
  );
}
