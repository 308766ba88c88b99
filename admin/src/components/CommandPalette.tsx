import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Me } from '../api/auth';
import { api, unwrap } from '../api/client';
import { contentModelQuery, entryNoun } from '../api/content';
import { CONTRIBUTOR, contentRights } from '../lib/permissions';
import { modLabel, useShortcuts } from '../lib/shortcuts';

interface Command {
  id: string;
  label: string;
  hint: string;
  run: () => void;
}

/** Ctrl/⌘+K (or "/"): jump to a page, create an entry, or find an entry by title or slug. */
export function CommandPalette({ me }: { me: Me }) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const navigate = useNavigate();
  const rights = contentRights(me);
  const writer = me.user.role >= CONTRIBUTOR;
  const model = useQuery({ ...contentModelQuery(), enabled: writer && open });

  useShortcuts([
    { key: 'k', mod: true, inFields: true, run: () => setOpen(true) },
    { key: '/', run: () => setOpen(true) },
  ]);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      input.current?.focus();
    }
    if (!open && d.open) d.close();
  }, [open]);
  useEffect(() => {
    const t = setTimeout(() => setTerm(q.trim()), 200);
    return () => clearTimeout(t);
  }, [q]);

  const collections = model.data?.collections ?? [];
  const found = useQuery({
    queryKey: ['palette', term, collections.map((c) => c.slug).join()],
    enabled: open && writer && term.length >= 2,
    queryFn: async () => {
      const per = await Promise.all(
        collections.slice(0, 8).map(async (c) => {
          const r = await unwrap(
            api.GET('/admin/content/{collection}/lookup', {
              params: { path: { collection: c.slug }, query: { q: term, limit: 5 } },
            }),
          );
          return r.items.map((e) => ({ ...e, collectionLabel: c.label }));
        }),
      );
      return per.flat();
    },
  });

  const close = useCallback(() => {
    setOpen(false);
    setQ('');
  }, []);
  const go = useCallback(
    (fn: () => void) => () => {
      close();
      fn();
    },
    [close],
  );
  const commands: Command[] = useMemo(() => {
    const list: Command[] = [{ id: 'dash', label: 'Dashboard', hint: 'Go to', run: go(() => navigate({ to: '/' })) }];
    for (const c of collections) {
      list.push({
        id: `list-${c.slug}`,
        label: c.label,
        hint: 'Open collection',
        run: go(() => navigate({ to: '/content/$collection', params: { collection: c.slug }, search: {} })),
      });
      if (rights.canCreate) {
        list.push({
          id: `new-${c.slug}`,
          label: `New ${entryNoun(c)}`,
          hint: c.label,
          run: go(() =>
            navigate({ to: '/content/$collection/$id', params: { collection: c.slug, id: 'new' }, search: {} }),
          ),
        });
      }
    }
    if (rights.canManageSchema)
      list.push({ id: 'schema', label: 'Schema', hint: 'Go to', run: go(() => navigate({ to: '/schema' })) });
    list.push({
      id: 'account',
      label: 'Your account',
      hint: 'Go to',
      run: go(() => navigate({ to: '/account' })),
    });
    const needle = q.trim().toLowerCase();
    const matched = needle ? list.filter((x) => x.label.toLowerCase().includes(needle)) : list;
    const entries: Command[] = (found.data ?? []).map((e) => ({
      id: `entry-${e.id}`,
      label: e.title || e.slug || e.id,
      hint: `${e.collectionLabel} · ${e.status}`,
      run: go(() =>
        navigate({ to: '/content/$collection/$id', params: { collection: e.collection, id: e.id }, search: {} }),
      ),
    }));
    return [...matched, ...entries].slice(0, 40);
  }, [collections, q, found.data, rights.canCreate, rights.canManageSchema, navigate, go]);

  // A new query starts at the top of the results.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on query change only
  useEffect(() => setActive(0), [q]);

  return (
    <>
      <button
        type="button"
        className="palette-trigger"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K Meta+K /"
      >
        <span className="palette-trigger__long">Search or jump to…</span>
        <span className="palette-trigger__short">Search</span>
        <kbd>{modLabel}+K</kbd>
      </button>
      <dialog ref={dialog} className="palette" aria-label="Command palette" onClose={close} onCancel={close}>
        <input
          ref={input}
          className="input palette__input"
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={commands[active] ? `${listId}-${active}` : undefined}
          placeholder={writer ? 'Type a page, "new …", or an entry title' : 'Type a page name'}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((a) => Math.min(a + 1, commands.length - 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => Math.max(a - 1, 0));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              commands[active]?.run();
            }
          }}
        />
        <div id={listId} role="listbox" className="palette__list" aria-label="Results">
          {commands.map((c, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the input drives the list by keyboard (aria-activedescendant)
            <div
              key={c.id}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className={i === active ? 'palette__item palette__item--active' : 'palette__item'}
              onMouseEnter={() => setActive(i)}
              onClick={c.run}
            >
              <span>{c.label}</span>
              <span className="muted small">{c.hint}</span>
            </div>
          ))}
          {!commands.length ? (
            <p className="palette__empty">{found.isFetching ? 'Searching…' : 'Nothing matches.'}</p>
          ) : null}
        </div>
        <p className="palette__foot small muted">
          ↑↓ to choose · Enter to open · Esc to close. In lists: N new entry. In the editor: {modLabel}+S save,{' '}
          {modLabel}+Shift+P publish.
        </p>
      </dialog>
    </>
  );
}
