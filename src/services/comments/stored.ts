import { fitted, issueText, refuse, type StoredRow, type StoredVerdict, storedInstants } from '../stored-record.js';
import { COMMENT_STATUSES, LIMITS } from './model.js';
import { checkCommentText, normaliseText, storedText, unescapeStored } from './text.js';

const STATUSES: ReadonlySet<string> = new Set(COMMENT_STATUSES);

export const COMMENT_TEXT_NORMALISED = 'comment_text_normalised';

/**
 * A comment from elsewhere (a site package), stored the way a submission is:
 * its text normalised and HTML-escaped (markup arrives as the characters it
 * is made of, never as markup), an author link kept only when it is an
 * absolute http(s) address. Text already in its stored form is unchanged;
 * anything else is changed and reported as `comment_text_normalised`. A
 * comment without text, or longer than a submission may be, is refused.
 */
export function storedComment(row: StoredRow): StoredVerdict {
  if (!STATUSES.has(row.status as string)) return refuse(row, `status "${String(row.status)}" is not a comment status`);
  const instants = storedInstants(row, ['created_at', 'updated_at', 'moderated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  if (row.spam_reasons !== null && row.spam_reasons !== undefined) {
    let reasons: unknown;
    try {
      reasons = JSON.parse(String(row.spam_reasons));
    } catch {
      return refuse(row, 'spam_reasons is not JSON');
    }
    if (!Array.isArray(reasons) || !reasons.every((r) => typeof r === 'string')) {
      return refuse(row, 'spam_reasons must be a list of strings');
    }
  }
  const text = checkCommentText({
    body: unescapeStored(String(row.body ?? '')),
    authorName: unescapeStored(String(row.author_name ?? '')),
    authorUrl: typeof row.author_url === 'string' ? row.author_url : null,
  });
  const refused = text.issues.filter((i) => i.path[0] !== 'authorUrl');
  if (refused.length) return refuse(row, issueText(refused) as string);
  const email = typeof row.author_email === 'string' ? row.author_email.trim().toLowerCase() : null;
  const agent = typeof row.user_agent === 'string' ? unescapeStored(row.user_agent) : null;
  return fitted(
    row,
    {
      ...row,
      ...instants.values,
      body: storedText(text.value.body),
      author_name: storedText(text.value.authorName),
      // An address that is not an http(s) link is dropped, as a submission would have refused it.
      author_url: text.issues.length ? null : text.value.authorUrl,
      author_email: email && email.length <= LIMITS.authorEmail ? email : null,
      user_agent: agent ? storedText(normaliseText(agent, false).slice(0, LIMITS.userAgent)) : null,
    },
    COMMENT_TEXT_NORMALISED,
  );
}
