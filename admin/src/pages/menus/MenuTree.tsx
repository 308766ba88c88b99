import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { MenuItem, MenuWithItems } from '../../api/structure';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { DragHandle } from '../../components/SortableList';
import { issueFor, otherIssues } from '../../lib/forms';
import {
  applyMove,
  type FlatItem,
  type Placement,
  placements,
  projectDrop,
  subtreeOf,
  type TreeMove,
} from './tree-ops';

/** Pixels of horizontal drag per nesting level. */
const INDENT = 28;

const KIND_LABEL: Record<MenuItem['kind'], string> = { content: 'Entry', term: 'Term', url: 'Link' };

/** The items as a nested, sortable list. Structure changes go out as one batch reorder. */
export function MenuTree({
  menu,
  locale,
  busy,
  onPlace,
  onChanged,
}: {
  menu: MenuWithItems;
  locale: string;
  busy: boolean;
  onPlace: (items: Placement[]) => void;
  onChanged: (message: string) => void;
}) {
  const flat: FlatItem[] = menu.items.map((i) => ({ id: i.id, parentId: i.parentId, depth: i.depth }));
  const [activeId, setActiveId] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const hidden = activeId ? subtreeOf(flat, activeId) : new Set<string>();
  hidden.delete(activeId ?? '');
  const visible = menu.items.filter((i) => !hidden.has(i.id));
  const byId = new Map(menu.items.map((i) => [i.id, i]));

  function move(id: string, how: TreeMove) {
    const next = applyMove(flat, id, how);
    if (next) onPlace(placements(next));
  }
  function onDragMove(e: DragMoveEvent) {
    setOffset(e.delta.x);
  }
  function onDragEnd(e: DragEndEvent) {
    const active = String(e.active.id);
    setActiveId(null);
    setOffset(0);
    if (!e.over) return;
    const drop = projectDrop(flat, active, String(e.over.id), Math.round(e.delta.x / INDENT));
    if (!drop) return;
    const before = JSON.stringify(placements(flat));
    const after = placements(drop.order);
    if (JSON.stringify(after) !== before) onPlace(after);
  }
  const projected =
    activeId !== null ? (projectDrop(flat, activeId, activeId, Math.round(offset / INDENT))?.depth ?? null) : null;

  if (!menu.items.length) {
    return <p className="empty">This menu has no items yet. Add links, entries or terms below.</p>;
  }
  const label = (id: string | number) => byId.get(String(id))?.label || 'item';
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragStart={(e) => setActiveId(String(e.active.id))}
      onDragMove={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        setActiveId(null);
        setOffset(0);
      }}
      accessibility={{
        announcements: {
          onDragStart: ({ active }) => `Picked up ${label(active.id)}.`,
          onDragOver: ({ active, over }) => (over ? `${label(active.id)} is over ${label(over.id)}.` : undefined),
          onDragEnd: ({ active, over }) => (over ? `${label(active.id)} dropped at ${label(over.id)}.` : undefined),
          onDragCancel: ({ active }) => `Moving ${label(active.id)} cancelled.`,
        },
        screenReaderInstructions: {
          draggable:
            'Press Space to pick up, the arrow keys to move, Space to drop. Use the Indent and Outdent buttons to nest.',
        },
      }}
    >
      <SortableContext items={visible.map((i) => i.id)} strategy={verticalListSortingStrategy}>
        <ul className="sortables menu-tree" aria-label="Menu items" aria-busy={busy || undefined}>
          {visible.map((item) => {
            const siblings = menu.items.filter((i) => i.parentId === item.parentId);
            const position = siblings.findIndex((s) => s.id === item.id);
            return (
              <ItemRow
                key={item.id}
                menu={menu}
                locale={locale}
                item={item}
                depth={item.id === activeId && projected !== null ? projected : item.depth}
                canUp={position > 0}
                canDown={position < siblings.length - 1}
                canIndent={position > 0}
                canOutdent={item.depth > 0}
                disabled={busy}
                onMove={(how) => move(item.id, how)}
                onChanged={onChanged}
              />
            );
          })}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

/** What an item points at, as an editor needs to see it (including drafts and other languages). */
function targetText(item: MenuItem, locale: string): string {
  if (item.kind === 'url') return item.url ?? '';
  const t = item.target;
  if (!t) return 'Not available in this language';
  const where = t.collection ?? t.taxonomy ?? '';
  const other = t.locale !== locale ? ` (${t.locale})` : '';
  const status = t.status && t.status !== 'published' ? ` · ${t.status}, hidden from readers` : '';
  return `${where} · ${t.slug ?? t.id}${other}${status}`;
}

function ItemRow({
  menu,
  locale,
  item,
  depth,
  canUp,
  canDown,
  canIndent,
  canOutdent,
  disabled,
  onMove,
  onChanged,
}: {
  menu: MenuWithItems;
  locale: string;
  item: MenuItem;
  depth: number;
  canUp: boolean;
  canDown: boolean;
  canIndent: boolean;
  canOutdent: boolean;
  disabled: boolean;
  onMove: (how: TreeMove) => void;
  onChanged: (message: string) => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.id,
    disabled,
  });
  const [editing, setEditing] = useState(false);
  const path = { path: { name: menu.name, id: item.id }, query: { locale } };
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/menus/{name}/items/{id}', { params: path })),
    onSuccess: () =>
      onChanged(
        `Removed “${item.label}”${menu.items.some((i) => i.parentId === item.id) ? '; its sub-items moved up' : ''}.`,
      ),
  });
  const missing = item.kind !== 'url' && !item.target;
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? 'sortable sortable--dragging menu-item' : 'sortable menu-item'}
      style={{ transform: CSS.Transform.toString(transform), transition, marginLeft: depth * INDENT }}
    >
      <div className="term__line">
        <DragHandle label={`Move ${item.label || 'item'}`} {...attributes} {...listeners} />
        <div className="term__main">
          <span className="badge badge--plain">{KIND_LABEL[item.kind]}</span>
          <span className="term__label">{item.label || '(no label)'}</span>
          <span className={missing ? 'small warning' : 'muted small'}>{targetText(item, locale)}</span>
        </div>
        <div className="term__actions">
          <Button size="small" variant="ghost" disabled={!canUp || disabled} onClick={() => onMove('up')}>
            <span aria-hidden="true">↑</span>
            <span className="visually-hidden">Move {item.label} up</span>
          </Button>
          <Button size="small" variant="ghost" disabled={!canDown || disabled} onClick={() => onMove('down')}>
            <span aria-hidden="true">↓</span>
            <span className="visually-hidden">Move {item.label} down</span>
          </Button>
          <Button size="small" variant="ghost" disabled={!canOutdent || disabled} onClick={() => onMove('outdent')}>
            <span aria-hidden="true">←</span>
            <span className="visually-hidden">Outdent {item.label}</span>
          </Button>
          <Button size="small" variant="ghost" disabled={!canIndent || disabled} onClick={() => onMove('indent')}>
            <span aria-hidden="true">→</span>
            <span className="visually-hidden">Indent {item.label} under the item above</span>
          </Button>
          <Button size="small" variant="ghost" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
            Edit<span className="visually-hidden"> {item.label}</span>
          </Button>
          <ConfirmButton
            label="Remove"
            question="Remove this item?"
            confirmLabel="Remove"
            onConfirm={() => remove.mutate()}
            busy={remove.isPending}
          />
        </div>
      </div>
      <ErrorMessage error={remove.error} />
      {editing ? (
        <ItemEditor
          menu={menu}
          locale={locale}
          item={item}
          onDone={(message) => {
            setEditing(false);
            if (message) onChanged(message);
          }}
        />
      ) : null}
    </li>
  );
}

function ItemEditor({
  menu,
  locale,
  item,
  onDone,
}: {
  menu: MenuWithItems;
  locale: string;
  item: MenuItem;
  onDone: (message?: string) => void;
}) {
  const [label, setLabel] = useState(item.customLabel ?? '');
  const [url, setUrl] = useState(item.url ?? '');
  const [newTab, setNewTab] = useState(item.openInNewTab);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/menus/{name}/items/{id}', {
          params: { path: { name: menu.name, id: item.id }, query: { locale } },
          body: {
            label: label.trim() || null,
            openInNewTab: newTab,
            ...(item.kind === 'url' && url !== item.url ? { kind: 'url' as const, url } : {}),
          },
        }),
      ),
    onSuccess: (i) => onDone(`Saved “${i.label}”.`),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }
  return (
    <form className="subform subform--nested stack" onSubmit={submit} noValidate aria-label={`Edit ${item.label}`}>
      <div className="grid-2">
        <TextField
          label="Label"
          hint={item.kind === 'url' ? undefined : 'Leave empty to show the title of what it links to.'}
          name="item-label"
          value={label}
          onValue={setLabel}
          error={issueFor(save.error, 'label')}
          optional={item.kind !== 'url'}
        />
        {item.kind === 'url' ? (
          <TextField label="Address" name="item-url" value={url} onValue={setUrl} error={issueFor(save.error, 'url')} />
        ) : null}
      </div>
      <label className="check check--inline">
        <input type="checkbox" checked={newTab} onChange={(e) => setNewTab(e.target.checked)} />
        <span>Open in a new tab</span>
      </label>
      <ErrorMessage error={save.error} extra={otherIssues(save.error, ['label', 'url'])} />
      <div className="actions">
        <Button type="submit" size="small" variant="primary" busy={save.isPending}>
          Save item
        </Button>
        <Button size="small" variant="ghost" onClick={() => onDone()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
