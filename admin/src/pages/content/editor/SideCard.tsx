import { useState } from 'react';
import type { CollectionModel, ContentItem } from '../../../api/content';
import { Button } from '../../../components/Button';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { formatDateTime } from '../../../lib/format';
import type { ContentRights } from '../../../lib/permissions';
import { modLabel } from '../../../lib/shortcuts';
import { formatInSiteZone, fromZonedInput, offsetLabel, siteTimeZone } from '../../../lib/timezone';
import { StatusPill } from '../StatusPill';

export type LifecycleAction =
  | 'publish'
  | 'unpublish'
  | 'schedule'
  | 'unschedule'
  | 'discard'
  | 'duplicate'
  | 'trash'
  | 'restore'
  | 'permanent'
  | 'compare';

/** Status, dates and every lifecycle action the person may take; the others are shown disabled with the reason. */
export function SideCard({
  c,
  item,
  rights,
  dirty,
  saveState,
  busy,
  readOnly,
  onAction,
  onSave,
  comparing,
}: {
  c: CollectionModel;
  item: ContentItem;
  rights: ContentRights;
  dirty: boolean;
  saveState: string;
  busy: LifecycleAction | 'save' | null;
  readOnly: boolean;
  onAction: (a: LifecycleAction, arg?: string) => void;
  onSave: () => void;
  comparing: boolean;
}) {
  const [when, setWhen] = useState('');
  const [whenError, setWhenError] = useState<string | null>(null);
  const canPublish = rights.canPublish(item);
  const canEdit = rights.canEdit(item);
  const trashed = item.status === 'trashed';
  const zone = siteTimeZone();
  const publishable = item.status === 'draft' || item.status === 'scheduled' || item.hasDraft;
  const reason = rights.publishReason(item);

  function schedule() {
    const iso = when ? fromZonedInput(when, zone) : null;
    if (!iso) return setWhenError('Choose a date and time.');
    if (Date.parse(iso) <= Date.now()) return setWhenError('Choose a time in the future.');
    setWhenError(null);
    onAction('schedule', iso);
  }

  return (
    <section className="card side-card" aria-labelledby="status-title">
      <h2 id="status-title" className="card__title">
        Status
      </h2>
      <StatusPill item={item} />
      <dl className="facts">
        <div>
          <dt>Updated</dt>
          <dd>{formatDateTime(item.updatedAt)}</dd>
        </div>
        <div>
          <dt>Published</dt>
          <dd>{formatDateTime(item.publishedAt)}</dd>
        </div>
        {item.scheduledAt ? (
          <div>
            <dt>Scheduled</dt>
            <dd>{formatInSiteZone(item.scheduledAt, zone)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Locale</dt>
          <dd>{item.locale}</dd>
        </div>
      </dl>
      <p className="save-state" role="status" aria-live="polite">
        {saveState}
      </p>
      {trashed ? (
        <div className="stack">
          <p className="small muted">In the trash: off the site. Restore it to edit again.</p>
          {canEdit ? (
            <Button busy={busy === 'restore'} onClick={() => onAction('restore')}>
              Restore as draft
            </Button>
          ) : null}
          {rights.canDeleteForever ? (
            <ConfirmButton
              label="Delete permanently"
              question="Delete for good? This cannot be undone."
              confirmLabel="Delete permanently"
              busy={busy === 'permanent'}
              onConfirm={() => onAction('permanent')}
            />
          ) : (
            <p className="small muted">Only Admins delete entries for good.</p>
          )}
        </div>
      ) : (
        <div className="stack">
          <Button
            variant={canPublish && publishable ? 'secondary' : 'primary'}
            busy={busy === 'save'}
            disabled={readOnly || !dirty}
            onClick={onSave}
            aria-keyshortcuts="Control+S Meta+S"
            title={`${modLabel}+S`}
          >
            {item.status === 'published' && !c.supports.includes('revisions') ? 'Save (goes live)' : 'Save draft'}
          </Button>
          {canPublish ? (
            publishable ? (
              <Button
                variant="primary"
                busy={busy === 'publish'}
                disabled={readOnly}
                onClick={() => onAction('publish')}
                aria-keyshortcuts="Control+Shift+P Meta+Shift+P"
                title={`${modLabel}+Shift+P`}
              >
                {item.status === 'published' ? 'Publish changes' : 'Publish'}
              </Button>
            ) : null
          ) : (
            <p className="small muted reason">{reason}</p>
          )}
          {item.hasDraft && item.status === 'published' ? (
            <>
              <Button variant="ghost" aria-pressed={comparing} onClick={() => onAction('compare')}>
                {comparing ? 'Hide comparison' : 'Compare with live'}
              </Button>
              {canEdit && !readOnly ? (
                <ConfirmButton
                  label="Discard draft"
                  question="Drop the pending changes? The live version stays."
                  confirmLabel="Discard draft"
                  busy={busy === 'discard'}
                  onConfirm={() => onAction('discard')}
                />
              ) : null}
            </>
          ) : null}
          {canPublish && item.status === 'published' && !readOnly ? (
            <ConfirmButton
              label="Unpublish"
              question="Take it off the site? Content and date are kept."
              confirmLabel="Unpublish"
              busy={busy === 'unpublish'}
              onConfirm={() => onAction('unpublish')}
            />
          ) : null}
          {canPublish ? (
            item.status === 'scheduled' ? (
              <Button
                variant="ghost"
                busy={busy === 'unschedule'}
                disabled={readOnly}
                onClick={() => onAction('unschedule')}
              >
                Cancel the schedule
              </Button>
            ) : (
              <div className="schedule">
                <label className="field__label" htmlFor="schedule-at">
                  Publish later
                </label>
                <input
                  id="schedule-at"
                  className="input input--small"
                  type="datetime-local"
                  value={when}
                  disabled={readOnly}
                  aria-describedby="schedule-zone"
                  onChange={(e) => setWhen(e.target.value)}
                />
                <p id="schedule-zone" className="field__hint">
                  {zone} ({offsetLabel(null, zone)})
                  {when && fromZonedInput(when, zone) ? ` · ${fromZonedInput(when, zone)} UTC` : ''}
                </p>
                {whenError ? <p className="field__error">{whenError}</p> : null}
                <Button size="small" busy={busy === 'schedule'} disabled={readOnly} onClick={schedule}>
                  Schedule
                </Button>
              </div>
            )
          ) : null}
          <div className="actions">
            {rights.canCreate ? (
              <Button size="small" variant="ghost" busy={busy === 'duplicate'} onClick={() => onAction('duplicate')}>
                Duplicate
              </Button>
            ) : null}
            {canEdit && !readOnly ? (
              <ConfirmButton
                label="Move to trash"
                question="Move to the trash? It leaves the site."
                confirmLabel="Move to trash"
                busy={busy === 'trash'}
                onConfirm={() => onAction('trash')}
              />
            ) : (
              <p className="small muted reason">
                {canEdit ? 'Read-only while someone else edits or a conflict is open.' : rights.editReason(item)}
              </p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
