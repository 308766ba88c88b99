import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys, type Widget, type WidgetAreaWithWidgets } from '../../api/structure';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { Page, Section } from '../../components/Page';
import { moveIds, SortableList } from '../../components/SortableList';
import { describeWidget, WIDGET_TYPES, WidgetForm } from './WidgetForm';

/** One widget area: its widgets in order (drag or buttons), add, edit, delete. */
export function WidgetAreaPage({ name }: { name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const key = [...keys.widgetAreas, name];
  const area = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/widget-areas/{name}', { params: { path: { name } } })),
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const changed = (message: string) => {
    setNotice(message);
    queryClient.invalidateQueries({ queryKey: keys.widgetAreas });
  };
  const reorder = useMutation({
    mutationFn: (ids: string[]) =>
      unwrap(api.POST('/widget-areas/{name}/reorder', { params: { path: { name } }, body: { ids } })),
    onMutate: (ids) =>
      queryClient.setQueryData(key, (old: WidgetAreaWithWidgets | undefined) =>
        old ? { ...old, widgets: ids.map((id) => old.widgets.find((w) => w.id === id) as Widget) } : old,
      ),
    onSuccess: (a) => queryClient.setQueryData(key, a),
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/widget-areas/{name}', { params: { path: { name } } })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: keys.widgetAreas });
      navigate({ to: '/widgets' });
    },
  });
  const data = area.data;
  const widgets = data?.widgets ?? [];
  const ids = widgets.map((w) => w.id);
  const row = (w: Widget, handle: ReactNode, index: number) => (
    <WidgetRow
      area={name}
      widget={w}
      handle={handle}
      first={index === 0}
      last={index === widgets.length - 1}
      onMove={(delta) => reorder.mutate(moveIds(ids, index, delta))}
      onChanged={changed}
    />
  );
  return (
    <Page
      title={data?.label ?? 'Widget area'}
      description={data ? <span className="chip">{data.name}</span> : undefined}
      actions={
        <Link to="/widgets" className="button button--ghost button--small">
          All widget areas
        </Link>
      }
    >
      {area.isPending ? <Spinner /> : null}
      {area.isError ? <ErrorMessage error={area.error} /> : null}
      {data ? (
        <>
          <Section id="widgets" title="Widgets" description="Shown in this order. Drag them, or use the arrows.">
            {notice ? <Notice tone="success">{notice}</Notice> : null}
            <ErrorMessage error={reorder.error} />
            {widgets.length ? (
              <SortableList
                items={widgets}
                ariaLabel="Widgets"
                label={(w) => w.title || describeWidget(w)}
                onReorder={(order) => reorder.mutate(order)}
                disabled={reorder.isPending}
                render={row}
              />
            ) : (
              <p className="empty">No widgets here yet. Add one below.</p>
            )}
          </Section>
          <Section id="add-widget" title="Add a widget">
            {adding ? (
              <WidgetForm
                area={name}
                onDone={(message) => {
                  setAdding(false);
                  if (message) changed(message);
                }}
              />
            ) : (
              <Button variant="primary" onClick={() => setAdding(true)}>
                Add a widget
              </Button>
            )}
          </Section>
          <Section id="delete-area" title="Delete widget area" description="Its widgets are deleted with it.">
            <ErrorMessage error={remove.error} />
            <ConfirmButton
              label="Delete area"
              question={`Delete “${data.label}” and its ${widgets.length} widgets?`}
              confirmLabel="Delete"
              onConfirm={() => remove.mutate()}
              busy={remove.isPending}
            />
          </Section>
        </>
      ) : null}
    </Page>
  );
}

function WidgetRow({
  area,
  widget,
  handle,
  first,
  last,
  onMove,
  onChanged,
}: {
  area: string;
  widget: Widget;
  handle: ReactNode;
  first: boolean;
  last: boolean;
  onMove: (delta: number) => void;
  onChanged: (message: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/widget-areas/{name}/widgets/{id}', { params: { path: { name: area, id: widget.id } } })),
    onSuccess: () => onChanged('Widget removed.'),
  });
  const type = WIDGET_TYPES.find((t) => t.type === widget.type)?.label ?? widget.type;
  const name = widget.title || describeWidget(widget);
  return (
    <div className="term">
      <div className="term__line">
        {handle}
        <div className="term__main">
          <span className="badge badge--plain">{type}</span>
          <span className="term__label">{widget.title || describeWidget(widget)}</span>
          {widget.title ? <span className="muted small">{describeWidget(widget)}</span> : null}
        </div>
        <div className="term__actions">
          <Button size="small" variant="ghost" disabled={first} onClick={() => onMove(-1)}>
            <span aria-hidden="true">↑</span>
            <span className="visually-hidden">Move {name} up</span>
          </Button>
          <Button size="small" variant="ghost" disabled={last} onClick={() => onMove(1)}>
            <span aria-hidden="true">↓</span>
            <span className="visually-hidden">Move {name} down</span>
          </Button>
          <Button size="small" variant="ghost" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
            Edit<span className="visually-hidden"> {name}</span>
          </Button>
          <ConfirmButton
            label="Remove"
            question="Remove this widget?"
            confirmLabel="Remove"
            onConfirm={() => remove.mutate()}
            busy={remove.isPending}
          />
        </div>
      </div>
      <ErrorMessage error={remove.error} />
      {editing ? (
        <WidgetForm
          area={area}
          widget={widget}
          onDone={(message) => {
            setEditing(false);
            if (message) onChanged(message);
          }}
        />
      ) : null}
    </div>
  );
}
