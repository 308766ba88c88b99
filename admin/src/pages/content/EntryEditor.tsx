import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useBlocker, useNavigate } from '@tanstack/react-router';
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Me } from '../../api/auth';
import { api, unwrap } from '../../api/client';
import {
  type ContentItem,
  contentModelQuery,
  entryNoun,
  entryQuery,
  entryTitle,
  type LinkedEntry,
} from '../../api/content';
import { ApiError } from '../../api/errors';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { Page } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { ADMIN, CONTRIBUTOR, contentRights } from '../../lib/permissions';
import { useShortcuts } from '../../lib/shortcuts';
import { markDataArrived, useRenderTiming } from '../../lib/timing';
import { type BlockFieldsOf, formIssues } from '../../lib/validate';
import { BylinesPanel } from './editor/BylinesPanel';
import { ConflictView } from './editor/ConflictView';
import { createBody, emptyForm, type FormState, formFromItem, updateBody } from './editor/form';
import { LockBanner } from './editor/LockBanner';
import { ComparePanel, ReferencesPanel, RevisionsPanel, TranslationsPanel } from './editor/Panels';
import { LivePreview, PreviewCard, previewLinkQuery } from './editor/PreviewPane';
import { SeoPanel } from './editor/SeoPanel';
import { type LifecycleAction, SideCard } from './editor/SideCard';
import { SlugField } from './editor/SlugField';
import { TermsPanel } from './editor/TermsPanel';
import { useEditLock } from './editor/useEditLock';
import { useEntryForm } from './editor/useEntryForm';
import { blockFields } from './fields/blockFields';
import { EditorContext, type EditorContextValue } from './fields/context';
import { FieldInput } from './fields/FieldInput';

// The rich text editor is the heaviest chunk: start fetching it with the editor, in parallel with the entry.
void import('./fields/PortableTextInput');

export interface EditorSearch {
  locale?: string;
}

type Saved = { item: ContentItem; _rev: string };

/** Issue paths from the service (`data.title.0`) in the editor's keys (`title.0`). */
function serverIssues(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const i of err.issues) {
    const p = i.path[0] === 'data' ? i.path.slice(1) : i.path;
    const key = p.join('.');
    if (key && !out[key]) out[key] = i.message;
  }
  return out;
}

/** Create or edit one entry: every field type, autosave with `_rev`, conflicts, locks and the whole lifecycle. */
export function EntryEditorPage({
  me,
  collection,
  id,
  search,
}: {
  me: Me;
  collection: string;
  id: string;
  search: EditorSearch;
}) {
  const isNew = id === 'new';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const rights = contentRights(me);
  const model = useQuery(contentModelQuery());
  const c = model.data?.collections.find((x) => x.slug === collection);
  const entry = useQuery({
    ...entryQuery(collection, id),
    enabled: !isNew,
    queryFn: async () => {
      const data = await unwrap(api.GET('/content/{collection}/{id}', { params: { path: { collection, id } } }));
      markDataArrived('entry-editor');
      return data;
    },
  });

  const [item, setItem] = useState<ContentItem | null>(null);
  const [rev, setRev] = useState<string | undefined>();
  const [base, setBase] = useState<FormState | null>(null);
  const {
    form,
    put: putForm,
    update: updateForm,
    current: currentForm,
    unfinished,
    unfinishedNow,
    reportUnfinished,
  } = useEntryForm();
  const [epoch, setEpoch] = useState(0);
  const [busy, setBusy] = useState<LifecycleAction | 'save' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [serverFieldIssues, setServerFieldIssues] = useState<Record<string, string>>({});
  const [showIssues, setShowIssues] = useState(false);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Saved | null>(null);
  const [comparing, setComparing] = useState(false);
  /** Set when a resolved conflict should be saved as soon as the new state is in place. */
  const [saveSoon, setSaveSoon] = useState(false);

  // Load: a new entry starts from defaults, an existing one from the server (once per entry).
  useEffect(() => {
    if (!c) return;
    if (isNew) {
      const f = emptyForm(c);
      setItem(null);
      setBase(f);
      putForm(f);
      setRev(undefined);
      setEpoch((e) => e + 1);
    }
  }, [c, isNew, putForm]);
  const loadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!c || isNew || !entry.data || loadedFor.current === entry.data.item.id) return;
    loadedFor.current = entry.data.item.id;
    adopt(entry.data, 'remount');
  });

  /**
   * Take the server's answer as the new base. `replace` also puts its values
   * in the form; `remount` rebuilds the inputs too (needed when the values
   * changed under editors that keep their own state, like rich text), which
   * an autosave never does: the person's focus and caret stay where they are.
   */
  const adopt = useCallback(
    (saved: Saved, mode: 'base' | 'replace' | 'remount') => {
      if (!c) return;
      const f = formFromItem(c, saved.item);
      setItem(saved.item);
      setRev(saved._rev);
      setBase(f);
      if (mode !== 'base') putForm(f);
      if (mode === 'remount') setEpoch((e) => e + 1);
      queryClient.setQueryData(entryQuery(collection, saved.item.id).queryKey, saved);
    },
    [c, collection, queryClient, putForm],
  );

  // Draft readers (Contributor and up) may make preview links; the live preview frames the site beside the form.
  const previewLink = useQuery({
    ...previewLinkQuery(collection, item?.id ?? id),
    enabled: Boolean(item && me.user.role >= CONTRIBUTOR),
  });
  const [livePreview, setLivePreview] = useState(false);
  const previewUrl = livePreview && item ? (previewLink.data?.url ?? null) : null;

  const lockEnabled = Boolean(
    !isNew && c?.supports.includes('editLock') && item && rights.canEdit(item) && item.status !== 'trashed',
  );
  const lock = useEditLock(collection, isNew ? null : id, lockEnabled);

  const blockFieldsOf: BlockFieldsOf = useCallback(
    (type, version) => blockFields(model.data?.blockTypes ?? [], type, version),
    [model.data?.blockTypes],
  );
  const clientIssues = useMemo(
    () => (c && form ? { ...formIssues(c.fields, form.data, blockFieldsOf), ...unfinished } : {}),
    [c, form, blockFieldsOf, unfinished],
  );
  /** Whether what is shown differs from what is stored: changed values, or an input's text that is no value yet. */
  const differs = useCallback(
    (cur: FormState | null, open: Record<string, string>) =>
      Boolean(c && cur && base && (updateBody(c, base, cur).keys.length > 0 || Object.keys(open).length > 0)),
    [c, base],
  );
  const dirty = useMemo(() => differs(form, unfinished), [differs, form, unfinished]);
  const readOnly =
    !form ||
    (item ? !rights.canEdit(item) || item.status === 'trashed' : !rights.canCreate) ||
    lock.heldByOther ||
    conflict !== null;

  const save = useCallback(async (): Promise<Saved | null> => {
    // The form as it is now, not as last rendered: a save may start in the same moment as the last keystroke.
    const cur = currentForm();
    if (!c || !cur || !base) return null;
    if (Object.keys({ ...formIssues(c.fields, cur.data, blockFieldsOf), ...unfinishedNow() }).length) {
      setShowIssues(true);
      setError(new ApiError(400, 'VALIDATION_ERROR', 'Please correct the highlighted fields.'));
      return null;
    }
    setBusy('save');
    setError(null);
    setNotice(null);
    try {
      if (isNew) {
        const res = await unwrap(
          api.POST('/content/{collection}', {
            params: { path: { collection } },
            body: { ...createBody(c, cur), locale: search.locale },
          }),
        );
        await queryClient.invalidateQueries({ queryKey: ['content-model'] });
        await queryClient.invalidateQueries({ queryKey: ['content', collection] });
        queryClient.setQueryData(entryQuery(collection, res.item.id).queryKey, res);
        leaving.current = true;
        navigate({ to: '/content/$collection/$id', params: { collection, id: res.item.id }, replace: true });
        return res;
      }
      const { keys, body } = updateBody(c, base, cur);
      if (!keys.length) return item && rev ? { item, _rev: rev } : null;
      const res = await unwrap(
        api.PUT('/content/{collection}/{id}', { params: { path: { collection, id } }, body: { ...body, _rev: rev } }),
      );
      // Values typed while the request ran stay in the form; otherwise take the stored (normalised) values.
      adopt(res, currentForm() === cur ? 'replace' : 'base');
      setServerFieldIssues({});
      setSavedAt(res.item.updatedAt);
      queryClient.invalidateQueries({ queryKey: ['content', collection, 'list'] });
      return res;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'REV_CONFLICT') {
        const latest = await unwrap(api.GET('/content/{collection}/{id}', { params: { path: { collection, id } } }));
        setConflict(latest);
      } else {
        if (err instanceof ApiError && err.code === 'ENTRY_LOCKED') lock.refresh();
        setServerFieldIssues(serverIssues(err));
        setShowIssues(true);
        setError(err);
      }
      return null;
    } finally {
      setBusy(null);
    }
  }, [
    c,
    base,
    blockFieldsOf,
    isNew,
    collection,
    search.locale,
    queryClient,
    navigate,
    item,
    rev,
    id,
    adopt,
    lock,
    currentForm,
    unfinishedNow,
  ]);

  // Autosave: drafts (and staged drafts of live entries) save themselves a moment after typing stops.
  const autosave = Boolean(
    item &&
      !readOnly &&
      item.status !== 'trashed' &&
      (item.status !== 'published' || c?.supports.includes('revisions')),
  );
  useEffect(() => {
    if (!autosave || !dirty || busy || Object.keys(clientIssues).length) return;
    const t = setTimeout(() => void save(), 2000);
    return () => clearTimeout(t);
  }, [autosave, dirty, busy, clientIssues, save]);

  useEffect(() => {
    if (!saveSoon) return;
    setSaveSoon(false);
    void save();
  }, [saveSoon, save]);

  // Leaving for another screen: what autosave would save is saved on the way out;
  // otherwise (a new entry, a save that would go live) the person is asked first.
  const leaving = useRef(false);
  useBlocker({
    enableBeforeUnload: false,
    shouldBlockFn: async () => {
      // Asked of the form as it is now: a click may come before the last keystroke has rendered.
      if (leaving.current || !differs(currentForm(), unfinishedNow())) return false;
      // A save refuses (and shows why) while a field has a problem: then the person is asked.
      if (autosave && (await save())) return false;
      return !window.confirm('Leave this entry? Changes that are not saved will be lost.');
    },
  });

  // Closing the tab with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  async function lifecycle(action: LifecycleAction, arg?: string) {
    if (!item) return;
    if (action === 'compare') return setComparing((v) => !v);
    setError(null);
    setNotice(null);
    let current: Saved | null = rev ? { item, _rev: rev } : null;
    if (['publish', 'schedule'].includes(action) && differs(currentForm(), unfinishedNow())) {
      current = await save();
      if (!current) return;
    }
    const path = { params: { path: { collection, id: item.id } } };
    const guard = { _rev: current?._rev };
    setBusy(action);
    try {
      let res: Saved | null = null;
      switch (action) {
        case 'publish':
          res = await unwrap(api.POST('/content/{collection}/{id}/publish', { ...path, body: guard }));
          setNotice('Published.');
          break;
        case 'unpublish':
          res = await unwrap(api.POST('/content/{collection}/{id}/unpublish', { ...path, body: guard }));
          setNotice('Taken off the site. The content is kept as it was.');
          break;
        case 'schedule':
          res = await unwrap(
            api.POST('/content/{collection}/{id}/schedule', { ...path, body: { ...guard, scheduledAt: arg ?? '' } }),
          );
          setNotice(`Scheduled for ${formatDateTime(arg)}.`);
          break;
        case 'unschedule':
          res = await unwrap(
            api.DELETE('/content/{collection}/{id}/schedule', {
              params: { ...path.params, query: { _rev: guard._rev } },
            }),
          );
          setNotice('Schedule cancelled: the entry is a draft again.');
          break;
        case 'discard':
          res = await unwrap(api.POST('/content/{collection}/{id}/discard-draft', { ...path, body: guard }));
          setNotice('Draft discarded: the live version is shown.');
          break;
        case 'trash':
          res = await unwrap(
            api.DELETE('/content/{collection}/{id}', { params: { ...path.params, query: { _rev: guard._rev } } }),
          );
          setNotice('Moved to the trash.');
          break;
        case 'restore':
          res = await unwrap(api.POST('/content/{collection}/{id}/restore', { ...path, body: {} }));
          setNotice('Restored as a draft.');
          break;
        case 'duplicate': {
          const copy = await unwrap(api.POST('/content/{collection}/{id}/duplicate', { ...path, body: {} }));
          await queryClient.invalidateQueries({ queryKey: ['content-model'] });
          leaving.current = true;
          navigate({ to: '/content/$collection/$id', params: { collection, id: copy.item.id } });
          return;
        }
        case 'permanent':
          await unwrap(api.DELETE('/content/{collection}/{id}/permanent', path));
          await queryClient.invalidateQueries({ queryKey: ['content-model'] });
          leaving.current = true;
          navigate({ to: '/content/$collection', params: { collection }, search: { view: 'trash' } });
          return;
      }
      if (res) adopt(res, 'remount');
      setComparing(false);
      queryClient.invalidateQueries({ queryKey: ['content-model'] });
      queryClient.invalidateQueries({ queryKey: ['content', collection, 'list'] });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'REV_CONFLICT') {
        const latest = await unwrap(api.GET('/content/{collection}/{id}', path));
        setConflict(latest);
      } else {
        if (err instanceof ApiError && err.code === 'ENTRY_LOCKED') lock.refresh();
        setServerFieldIssues(serverIssues(err));
        setError(err);
      }
    } finally {
      setBusy(null);
    }
  }

  async function restoreRevision(revisionId: string) {
    if (!item) return;
    setBusy('save');
    setError(null);
    try {
      const res = await unwrap(
        api.POST('/content/{collection}/{id}/revisions/{revisionId}/restore', {
          params: { path: { collection, id: item.id, revisionId } },
          body: { _rev: rev },
        }),
      );
      adopt(res, 'remount');
      setNotice(
        res.item.status === 'published'
          ? 'Revision restored as a draft: publish it to make it live.'
          : 'Revision restored.',
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  useShortcuts([
    { key: 's', mod: true, inFields: true, run: () => void save() },
    {
      key: 'p',
      mod: true,
      shift: true,
      inFields: true,
      run: () => {
        if (item && rights.canPublish(item)) void lifecycle('publish');
      },
    },
  ]);

  const ctx: EditorContextValue | null = useMemo(
    () =>
      c && form
        ? {
            collection,
            entryId: item?.id ?? null,
            locale: item?.locale ?? search.locale ?? model.data?.i18n.defaultLocale ?? 'en',
            blockTypes: model.data?.blockTypes ?? [],
            // An unfinished input's problem shows at once: it is why nothing is being saved.
            issues: { ...(showIssues ? clientIssues : {}), ...serverFieldIssues, ...unfinished },
            refs: form.refs,
            setRefs: (field: string, next: LinkedEntry[]) =>
              updateForm((f) => ({ ...f, refs: { ...f.refs, [field]: next } })),
            reportUnfinished,
            readOnly,
          }
        : null,
    [
      c,
      form,
      collection,
      item,
      search.locale,
      model.data,
      showIssues,
      clientIssues,
      serverFieldIssues,
      unfinished,
      updateForm,
      reportUnfinished,
      readOnly,
    ],
  );
  useRenderTiming('entry-editor', Boolean(ctx && item));

  // Show a field's problem as soon as the person has changed it.
  useEffect(() => {
    if (dirty && !isNew) setShowIssues(true);
  }, [dirty, isNew]);

  if (model.isPending || (!isNew && entry.isPending)) return <Spinner label="Loading the entry…" />;
  if (model.isError) return <ErrorMessage error={model.error} />;
  if (!c) return <ErrorMessage error={new Error(`There is no collection "${collection}".`)} />;
  if (!isNew && entry.isError) {
    return (
      <Page title="Entry not found">
        <ErrorMessage error={entry.error} />
      </Page>
    );
  }
  if (!ctx || !form) return <Spinner label="Preparing the form…" />;

  const title = isNew
    ? `New ${entryNoun(c)}`
    : entryTitle({ ...(item ?? { id }), data: form.data, slug: form.slug }, c.titleField);
  const saveState =
    busy === 'save'
      ? 'Saving…'
      : dirty && !isNew
        ? autosave && !Object.keys(clientIssues).length
          ? 'Unsaved changes (saving shortly)'
          : 'Unsaved changes'
        : savedAt
          ? `Saved ${formatDateTime(savedAt)}`
          : 'All changes saved';
  const issueCount = Object.keys(ctx.issues).length;
  const slugField = (
    <SlugField
      collection={collection}
      locale={ctx.locale}
      entryId={item?.id ?? null}
      value={form.slug}
      disabled={readOnly}
      error={ctx.issues.slug}
      onValue={(slug) => updateForm((cur) => ({ ...cur, slug }))}
    />
  );
  const locales = (model.data?.i18n.locales ?? []) as string[];

  return (
    <Page
      title={title}
      description={
        <>
          {c.label}
          {item ? ` · ${item.locale}` : search.locale ? ` · ${search.locale}` : ''}
          {isNew && !rights.canCreate ? ' · your role cannot create entries' : ''}
        </>
      }
      actions={
        isNew ? (
          <button
            type="button"
            className="button button--primary"
            disabled={busy === 'save' || !rights.canCreate}
            onClick={() => void save()}
          >
            {busy === 'save' ? 'Creating…' : 'Create draft'}
          </button>
        ) : null
      }
    >
      {lock.heldByOther && lock.state?.holder ? (
        <LockBanner holder={lock.state.holder} onTakeOver={lock.takeOver} />
      ) : null}
      {item && !rights.canEdit(item) ? <Notice>{rights.editReason(item)} You can read it.</Notice> : null}
      {conflict && base && form ? (
        <ConflictView
          c={c}
          mine={form}
          theirs={formFromItem(c, conflict.item)}
          theirsAt={conflict.item.updatedAt}
          onCancel={() => setConflict(null)}
          onResolve={(merged) => {
            const theirs = formFromItem(c, conflict.item);
            setItem(conflict.item);
            setRev(conflict._rev);
            setBase(theirs);
            putForm(merged);
            setEpoch((e) => e + 1);
            setConflict(null);
            setSaveSoon(true);
          }}
        />
      ) : null}
      <ErrorMessage
        error={error}
        extra={
          issueCount && error instanceof ApiError && error.code === 'VALIDATION_ERROR'
            ? Object.entries(ctx.issues)
                .filter(([k]) => !c.fields.some((f) => k === f.slug || k.startsWith(`${f.slug}.`)))
                .map(([k, m]) => `${k}: ${m}`)
            : []
        }
      />
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {comparing && item ? <ComparePanel c={c} item={item} /> : null}
      <div className={previewUrl ? 'editor editor--preview' : 'editor'}>
        <form
          className="editor__main card"
          noValidate
          aria-label={`Fields of this ${entryNoun(c)}`}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <EditorContext.Provider value={ctx}>
            <div key={epoch} className="editor__fields">
              {c.fields.map((f) => (
                <Fragment key={f.slug}>
                  <FieldInput
                    field={f}
                    path={f.slug}
                    value={form.data[f.slug] ?? null}
                    onChange={(v) => updateForm((cur) => ({ ...cur, data: { ...cur.data, [f.slug]: v } }))}
                  />
                  {f.slug === (c.titleField ?? c.fields[0]?.slug) ? slugField : null}
                </Fragment>
              ))}
              {c.fields.length === 0 ? slugField : null}
            </div>
          </EditorContext.Provider>
          {item && !readOnly ? (
            // On narrow screens the status card sits below the form: the main actions stay at hand.
            <div className="mobile-actions">
              <span className="mobile-actions__state">{saveState}</span>
              <button
                type="submit"
                className="button button--secondary button--small"
                disabled={!dirty || busy !== null}
              >
                Save
              </button>
              {rights.canPublish(item) && (item.status !== 'published' || item.hasDraft) ? (
                <button
                  type="button"
                  className="button button--primary button--small"
                  disabled={busy !== null}
                  onClick={() => void lifecycle('publish')}
                >
                  Publish
                </button>
              ) : null}
            </div>
          ) : null}
          {isNew ? null : (
            <p className="small muted">Press {navigator.platform.includes('Mac') ? '⌘' : 'Ctrl'}+S to save now.</p>
          )}
        </form>
        {previewUrl && item ? (
          <LivePreview collection={collection} id={item.id} locale={item.locale} rev={rev} initialUrl={previewUrl} />
        ) : null}
        <aside className="editor__side" aria-label="Publishing and details">
          {item ? (
            <SideCard
              c={c}
              item={item}
              rights={rights}
              dirty={dirty}
              saveState={saveState}
              busy={busy}
              readOnly={readOnly}
              onAction={lifecycle}
              onSave={() => void save()}
              comparing={comparing}
            />
          ) : null}
          {item && me.user.role >= CONTRIBUTOR ? (
            <PreviewCard
              collection={collection}
              link={previewLink}
              live={livePreview}
              onLive={setLivePreview}
              isAdmin={me.user.role >= ADMIN}
            />
          ) : null}
          {/* Translations and revisions first, open: they are what editors look for beside the status. */}
          {item && locales.length > 1 ? (
            <TranslationsPanel c={c} item={item} locales={locales} canCreate={rights.canCreate} />
          ) : null}
          {item && c.supports.includes('revisions') ? (
            <RevisionsPanel
              c={c}
              item={item}
              canRestore={!readOnly}
              busy={busy === 'save'}
              onRestore={restoreRevision}
            />
          ) : null}
          <BylinesPanel
            credits={form.credits}
            onChange={(credits) => updateForm((cur) => ({ ...cur, credits }))}
            locale={ctx.locale}
            readOnly={readOnly}
            canManage={rights.canManageBylines}
          />
          {item ? <TermsPanel collection={c.slug} entryId={item.id} locale={item.locale} readOnly={readOnly} /> : null}
          {item && c.supports.includes('seo') ? (
            <SeoPanel key={item.id} collection={c.slug} entryId={item.id} readOnly={readOnly} />
          ) : null}
          {item ? <ReferencesPanel c={c} item={item} /> : null}
        </aside>
      </div>
    </Page>
  );
}
