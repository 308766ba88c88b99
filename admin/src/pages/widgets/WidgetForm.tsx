import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { keys, type Widget, type WidgetCreate, type WidgetUpdate } from '../../api/structure';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/Feedback';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { RichTextField } from '../../components/RichTextField';
import { issueFor, otherIssues } from '../../lib/forms';
import { useEntryForm } from '../content/editor/useEntryForm';

type WidgetType = Widget['type'];
/** Settings as the form holds them while they are edited one field at a time; the service checks their shape by type. */
type Settings = Record<string, unknown>;
type Report = (path: string, problem: string | null) => void;

interface WidgetDraft {
  type: WidgetType;
  title: string;
  settings: Settings;
}

export const WIDGET_TYPES: Array<{ type: WidgetType; label: string; hint: string }> = [
  { type: 'richText', label: 'Text', hint: 'A few paragraphs of text.' },
  { type: 'menu', label: 'Menu', hint: 'One of your menus, in the reader’s language.' },
  { type: 'section', label: 'Section', hint: 'A reusable section.' },
  { type: 'terms', label: 'Terms', hint: 'The terms of a taxonomy, such as a tag cloud.' },
  { type: 'recentEntries', label: 'Latest entries', hint: 'The newest published entries of a collection.' },
  { type: 'custom', label: 'Custom', hint: 'Data for a widget your site’s templates know how to show.' },
];

/** A one-line summary of what a widget shows. */
export function describeWidget(w: Widget): string {
  const s = w.settings as Settings;
  switch (w.type) {
    case 'menu':
      return `Menu “${s.menu}”`;
    case 'section':
      return `Section “${s.section}”`;
    case 'terms':
      return `Terms of “${s.taxonomy}”${s.showCounts ? ' with counts' : ''}`;
    case 'recentEntries':
      return `Latest ${s.limit} of “${s.collection}”`;
    case 'custom':
      return `Custom “${s.kind}”`;
    default:
      return 'Text';
  }
}

const DEFAULTS: Record<WidgetType, Settings> = {
  richText: { content: [] },
  menu: { menu: '' },
  section: { section: '' },
  terms: { taxonomy: '', showCounts: false, hideEmpty: false },
  recentEntries: { collection: '', limit: 5 },
  custom: { kind: '', data: {} },
};

/** Create a widget (type first) or change one's title and settings. */
export function WidgetForm({
  area,
  widget,
  onDone,
}: {
  area: string;
  widget?: Widget;
  onDone: (message?: string) => void;
}) {
  const queryClient = useQueryClient();
  const first: WidgetDraft = {
    type: widget?.type ?? 'richText',
    title: widget?.title ?? '',
    settings: (widget?.settings as Settings) ?? DEFAULTS.richText,
  };
  // Held as the entry editor holds its form: a save reads what is on screen at that moment, and
  // JSON that does not parse is an unfinished change that stops it.
  const { form, update, current, unfinished, unfinishedNow, reportUnfinished } = useEntryForm(first);
  const { type, title, settings } = form ?? first;
  const [refused, setRefused] = useState<ApiError | null>(null);
  const save = useMutation({
    mutationFn: (d: WidgetDraft) =>
      widget
        ? unwrap(
            api.PUT('/widget-areas/{name}/widgets/{id}', {
              params: { path: { name: area, id: widget.id } },
              body: { title: d.title.trim() || null, settings: d.settings as WidgetUpdate['settings'] },
            }),
          )
        : unwrap(
            api.POST('/widget-areas/{name}/widgets', {
              params: { path: { name: area } },
              body: { type: d.type, title: d.title.trim() || null, settings: d.settings } as WidgetCreate,
            }),
          ),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: [...keys.widgetAreas, area] });
      onDone(widget ? 'Widget saved.' : 'Widget added at the end.');
    },
  });
  const set = (key: string) => (value: unknown) => update((d) => ({ ...d, settings: { ...d.settings, [key]: value } }));
  const err = (key: string) => issueFor(save.error, `settings.${key}`);
  function submit(e: FormEvent) {
    e.preventDefault();
    const cur = current();
    if (!cur) return;
    if (Object.keys(unfinishedNow()).length) {
      // Nothing is sent: the field shows what is not finished.
      save.reset();
      setRefused(new ApiError(400, 'VALIDATION_ERROR', 'Please correct the highlighted fields.'));
      return;
    }
    setRefused(null);
    save.mutate(cur);
  }
  // Shown until what stopped the save is fixed.
  const refusal = Object.keys(unfinished).length ? refused : null;
  return (
    <form
      className={widget ? 'subform subform--nested stack' : 'stack'}
      onSubmit={submit}
      noValidate
      aria-label={widget ? 'Edit widget' : 'New widget'}
    >
      {widget ? null : (
        <SelectField
          label="Type"
          hint={WIDGET_TYPES.find((t) => t.type === type)?.hint}
          name="widget-type"
          value={type}
          onValue={(v) => {
            update((d) => ({ ...d, type: v as WidgetType, settings: DEFAULTS[v as WidgetType] }));
            save.reset();
          }}
        >
          {WIDGET_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </SelectField>
      )}
      <TextField
        label="Title"
        name="widget-title"
        optional
        value={title}
        onValue={(v) => update((d) => ({ ...d, title: v }))}
        error={issueFor(save.error, 'title')}
      />
      <SettingsFields type={type} settings={settings} set={set} err={err} report={reportUnfinished} />
      <ErrorMessage
        error={refusal ?? save.error}
        extra={refusal ? [] : otherIssues(save.error, ['title', ...Object.keys(settings).map((k) => `settings.${k}`)])}
      />
      <div className="actions">
        <Button type="submit" variant="primary" size="small" busy={save.isPending}>
          {widget ? 'Save widget' : 'Add widget'}
        </Button>
        <Button size="small" variant="ghost" onClick={() => onDone()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function SettingsFields({
  type,
  settings,
  set,
  err,
  report,
}: {
  type: WidgetType;
  settings: Settings;
  set: (key: string) => (value: unknown) => void;
  err: (key: string) => string | undefined;
  report: Report;
}) {
  const menus = useQuery({
    queryKey: [...keys.menus, 'names'],
    queryFn: () => unwrap(api.GET('/menus', { params: { query: { limit: 100 } } })),
    enabled: type === 'menu',
  });
  const sections = useQuery({
    queryKey: [...keys.sections, 'names'],
    queryFn: () => unwrap(api.GET('/sections', { params: { query: { limit: 100 } } })),
    enabled: type === 'section',
  });
  const taxonomies = useQuery({
    queryKey: [...keys.taxonomies, 'names'],
    queryFn: () => unwrap(api.GET('/taxonomies', { params: { query: { limit: 100 } } })),
    enabled: type === 'terms',
  });
  const collections = useQuery({
    queryKey: ['schema', 'collections'],
    queryFn: () => unwrap(api.GET('/schema/collections')),
    enabled: type === 'recentEntries',
  });
  const choose = (key: string, label: string, options: Array<{ value: string; label: string }>) => (
    <SelectField label={label} name={key} value={String(settings[key] ?? '')} onValue={set(key)} error={err(key)}>
      <option value="">Choose…</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </SelectField>
  );
  switch (type) {
    case 'richText':
      return (
        <RichTextField
          label="Text"
          value={(settings.content as unknown[]) ?? []}
          onValue={set('content')}
          path="settings.content"
          reportUnfinished={report}
          error={err('content')}
        />
      );
    case 'menu':
      return choose(
        'menu',
        'Menu',
        (menus.data?.items ?? []).map((m) => ({ value: m.name, label: m.label })),
      );
    case 'section':
      return choose(
        'section',
        'Section',
        (sections.data?.items ?? []).map((s) => ({ value: s.slug, label: s.title })),
      );
    case 'terms':
      return (
        <>
          {choose(
            'taxonomy',
            'Taxonomy',
            (taxonomies.data?.items ?? []).map((t) => ({ value: t.name, label: t.label })),
          )}
          <label className="check check--inline">
            <input
              type="checkbox"
              checked={Boolean(settings.showCounts)}
              onChange={(e) => set('showCounts')(e.target.checked)}
            />
            <span>Show how many entries each term has</span>
          </label>
          <label className="check check--inline">
            <input
              type="checkbox"
              checked={Boolean(settings.hideEmpty)}
              onChange={(e) => set('hideEmpty')(e.target.checked)}
            />
            <span>Hide terms without entries</span>
          </label>
        </>
      );
    case 'recentEntries':
      return (
        <div className="grid-2">
          {choose(
            'collection',
            'Collection',
            (collections.data?.items ?? []).map((c) => ({ value: c.slug, label: c.label })),
          )}
          <TextField
            label="How many"
            name="limit"
            type="number"
            min={1}
            max={20}
            value={String(settings.limit ?? 5)}
            onValue={(v) => set('limit')(Number(v))}
            error={err('limit')}
          />
        </div>
      );
    default:
      return (
        <>
          <TextField
            label="Kind"
            hint="The name your templates recognise, e.g. “weather”."
            name="kind"
            value={String(settings.kind ?? '')}
            onValue={set('kind')}
            error={err('kind')}
          />
          <CustomData value={settings.data} onValue={set('data')} report={report} error={err('data')} />
        </>
      );
  }
}

/**
 * A custom widget's data as JSON text; it changes the value only when it parses. Text that does
 * not parse is shown as the field's problem and reported as unfinished, so the form saves nothing
 * until it parses (saving the last value that did would store something other than what is shown).
 */
function CustomData({
  value,
  onValue,
  report,
  error,
}: {
  value: unknown;
  onValue: (v: unknown) => void;
  report: Report;
  error: string | undefined;
}) {
  const path = 'settings.data';
  const [json, setJson] = useState(() => JSON.stringify(value ?? {}, null, 2));
  const [syntax, setSyntax] = useState<string | undefined>();
  // Reported as it is typed (a save may follow at once); withdrawn when the field goes.
  useEffect(() => () => report(path, null), [report]);
  return (
    <TextAreaField
      label="Data (JSON)"
      rows={6}
      spellCheck={false}
      value={json}
      onValue={(v) => {
        setJson(v);
        let problem: string | undefined;
        try {
          onValue(JSON.parse(v));
        } catch (e) {
          problem = `JSON syntax: ${e instanceof Error ? e.message : 'not valid JSON'}`;
        }
        setSyntax(problem);
        report(path, problem ?? null);
      }}
      error={syntax ?? error}
    />
  );
}
