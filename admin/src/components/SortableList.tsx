import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { ReactNode } from 'react';

/** The new order of `ids` after moving the one at `index` by `delta` places (clamped). */
export function moveIds(ids: string[], index: number, delta: number): string[] {
  const to = Math.max(0, Math.min(ids.length - 1, index + delta));
  return arrayMove(ids, index, to);
}

/** A grip the pointer drags and the keyboard picks up (Space), moves (arrows) and drops (Space). */
export function DragHandle({ label, ...props }: { label: string } & Record<string, unknown>) {
  return (
    <button type="button" className="drag-handle" aria-label={label} {...props}>
      <span aria-hidden="true">⠿</span>
    </button>
  );
}

function SortableRow<T extends { id: string }>({
  item,
  index,
  render,
  label,
  disabled,
}: {
  item: T;
  index: number;
  render: (item: T, handle: ReactNode, index: number) => ReactNode;
  label: (item: T) => string;
  disabled?: boolean;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.id,
    disabled,
  });
  const handle = disabled ? null : <DragHandle label={`Reorder ${label(item)}`} {...attributes} {...listeners} />;
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? 'sortable sortable--dragging' : 'sortable'}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      {render(item, handle, index)}
    </li>
  );
}

/**
 * A vertical list reordered by dragging (pointer or keyboard, announced to
 * screen readers). `onReorder` receives every ID in the new order.
 */
export function SortableList<T extends { id: string }>({
  items,
  label,
  onReorder,
  render,
  ariaLabel,
  disabled,
  variant = 'rows',
}: {
  items: T[];
  label: (item: T) => string;
  onReorder: (ids: string[]) => void;
  render: (item: T, handle: ReactNode, index: number) => ReactNode;
  ariaLabel: string;
  disabled?: boolean;
  /** `rows`: one ruled list (term trees, widgets); `cards`: separate cards (the schema builder). */
  variant?: 'rows' | 'cards';
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const byId = new Map(items.map((i) => [i.id, i]));
  const name = (id: string | number) => {
    const item = byId.get(String(id));
    return item ? label(item) : 'item';
  };
  const position = (id: string | number) => items.findIndex((i) => i.id === String(id)) + 1;
  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    const ids = items.map((i) => i.id);
    onReorder(arrayMove(ids, ids.indexOf(String(active.id)), ids.indexOf(String(over.id))));
  }
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: {
          onDragStart: ({ active }) =>
            `Picked up ${name(active.id)}, position ${position(active.id)} of ${items.length}.`,
          onDragOver: ({ active, over }) =>
            over ? `${name(active.id)} is over position ${position(over.id)} of ${items.length}.` : undefined,
          onDragEnd: ({ active, over }) =>
            over ? `${name(active.id)} dropped at position ${position(over.id)} of ${items.length}.` : undefined,
          onDragCancel: ({ active }) => `Reordering cancelled. ${name(active.id)} stays where it was.`,
        },
        screenReaderInstructions: {
          draggable: 'Press Space to pick up, the arrow keys to move, Space again to drop, Escape to cancel.',
        },
      }}
    >
      <SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
        <ul className={variant === 'cards' ? 'sortables sortables--cards' : 'sortables'} aria-label={ariaLabel}>
          {items.map((item, index) => (
            <SortableRow key={item.id} item={item} index={index} render={render} label={label} disabled={disabled} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}
