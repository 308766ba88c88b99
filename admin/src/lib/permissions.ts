import type { Me } from '../api/auth';

/**
 * What the signed-in person may do with entries, mirroring the service's role
 * table, so the admin hides or disables (with the reason) what would be a 403.
 * The service still decides.
 */
export const CONTRIBUTOR = 20;
export const AUTHOR = 30;
export const EDITOR = 40;
export const ADMIN = 50;

export interface EntryOwner {
  authorId: string | null;
}

export function contentRights(me: Me) {
  const role = me.user.role;
  const own = (e: EntryOwner | null | undefined) => !e || e.authorId === me.user.id;
  return {
    canCreate: role >= CONTRIBUTOR,
    canEdit: (e?: EntryOwner | null) => role >= EDITOR || (role >= CONTRIBUTOR && own(e)),
    canPublish: (e?: EntryOwner | null) => role >= EDITOR || (role >= AUTHOR && own(e)),
    canDeleteForever: role >= ADMIN,
    canManageBylines: role >= EDITOR,
    canManageSchema: role >= ADMIN,
    /** Why an action is unavailable, in words. */
    publishReason(e?: EntryOwner | null): string {
      if (role < AUTHOR) return 'Contributors cannot publish: an Author or Editor publishes your draft.';
      if (!own(e)) return "Authors publish only their own entries: ask an Editor to publish someone else's.";
      return '';
    },
    editReason(e?: EntryOwner | null): string {
      if (role < CONTRIBUTOR) return 'Your role can read published content only.';
      if (!own(e)) return "You can edit only your own entries; Editors edit everyone's.";
      return '';
    },
  };
}

export type ContentRights = ReturnType<typeof contentRights>;
