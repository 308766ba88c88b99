import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import type { Me } from '../api/auth';
import { api, unwrap } from '../api/client';
import { keys, type SettingsUpdate, type SiteSettings } from '../api/structure';
import { Button } from '../components/Button';
import { ConfirmButton } from '../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../components/Feedback';
import { SelectField, TextAreaField, TextField } from '../components/Field';
import { MediaField } from '../components/MediaField';
import { Page, Section } from '../components/Page';
import { issueFor, otherIssues } from '../lib/forms';
import { isAdmin, meQuery } from '../lib/session';

interface Form {
  title: string;
  tagline: string;
  logo: string;
  favicon: string;
  timezone: string;
  siteUrl: string;
  ogImage: string;
  titleSeparator: string;
  description: string;
}

const FIELDS = [
  'title',
  'tagline',
  'logo',
  'favicon',
  'timezone',
  'siteUrl',
  'seo.defaultOgImage',
  'seo.titleSeparator',
  'seo.description',
];

function toForm(s: SiteSettings): Form {
  return {
    title: s.title ?? '',
    tagline: s.tagline ?? '',
    logo: s.logo ?? '',
    favicon: s.favicon ?? '',
    timezone: s.timezone,
    siteUrl: s.siteUrl ?? '',
    ogImage: s.seo.defaultOgImage ?? '',
    titleSeparator: s.seo.titleSeparator,
    description: s.seo.description ?? '',
  };
}

/** Empty fields reset their setting to its default (null). */
function toBody(f: Form): SettingsUpdate {
  const orNull = (v: string) => v.trim() || null;
  return {
    title: f.title,
    tagline: orNull(f.tagline),
    logo: orNull(f.logo),
    favicon: orNull(f.favicon),
    timezone: f.timezone,
    siteUrl: orNull(f.siteUrl),
    seo: {
      defaultOgImage: orNull(f.ogImage),
      titleSeparator: orNull(f.titleSeparator),
      description: orNull(f.description),
    },
  };
}

/** Every IANA zone the browser knows, UTC first. */
function timezones(current: string): string[] {
  const zones =
    (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set(['UTC', current, ...zones])];
}

/** Site settings: Editors read them, Admins change them. */
export function SettingsPage({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const canEdit = isAdmin(me);
  const settings = useQuery({ queryKey: keys.settings, queryFn: () => unwrap(api.GET('/settings')) });
  const [form, setForm] = useState<Form | null>(null);
  const [local, setLocal] = useState<Partial<Record<keyof Form, string>>>({});
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (settings.data && !form) setForm(toForm(settings.data));
  }, [settings.data, form]);
  const zones = useMemo(() => timezones(form?.timezone ?? 'UTC'), [form?.timezone]);

  const save = useMutation({
    mutationFn: (body: SettingsUpdate) => unwrap(api.PUT('/settings', { body })),
    onSuccess: (data) => {
      queryClient.setQueryData(keys.settings, data);
      setForm(toForm(data));
      setSaved(true);
      // The top bar shows the title; the date-time pickers use the time zone.
      queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!form) return;
    setSaved(false);
    const problems: typeof local = {};
    if (!form.title.trim()) problems.title = 'Enter a title for your site.';
    if (form.siteUrl.trim() && !/^https?:\/\//i.test(form.siteUrl.trim())) {
      problems.siteUrl = 'Start with https:// (or http://).';
    }
    setLocal(problems);
    if (Object.keys(problems).length) return;
    save.mutate(toBody(form));
  }

  const set = (key: keyof Form) => (value: string) => {
    setSaved(false);
    setForm((f) => (f ? { ...f, [key]: value } : f));
  };
  const err = (key: keyof Form, path: string) => local[key] ?? issueFor(save.error, path);

  return (
    <Page
      title="Settings"
      description={
        canEdit
          ? 'How your site presents itself: its name, images, time zone and address.'
          : 'How your site presents itself. Only Admins can change these settings.'
      }
    >
      {settings.isPending ? <Spinner /> : null}
      {settings.isError ? <ErrorMessage error={settings.error} /> : null}
      {form ? (
        <form onSubmit={submit} noValidate>
          <Section id="identity" title="Identity" description="Shown in the admin, in sign-in emails and by your site.">
            <div className="stack">
              <TextField
                label="Site title"
                name="title"
                required
                value={form.title}
                onValue={set('title')}
                error={err('title', 'title')}
                disabled={!canEdit}
                maxLength={200}
              />
              <TextField
                label="Tagline"
                name="tagline"
                optional
                value={form.tagline}
                onValue={set('tagline')}
                error={err('tagline', 'tagline')}
                disabled={!canEdit}
                maxLength={500}
              />
              <div className="grid-2">
                <MediaField
                  label="Logo"
                  hint="Shown in your site's header."
                  value={form.logo}
                  onValue={set('logo')}
                  error={err('logo', 'logo')}
                  disabled={!canEdit}
                />
                <MediaField
                  label="Favicon"
                  hint="The small icon in browser tabs."
                  value={form.favicon}
                  onValue={set('favicon')}
                  error={err('favicon', 'favicon')}
                  disabled={!canEdit}
                />
              </div>
            </div>
          </Section>
          <Section id="place" title="Time and address">
            <div className="grid-2">
              <SelectField
                label="Time zone"
                hint="Dates and times in the admin are entered in this zone."
                name="timezone"
                value={form.timezone}
                onValue={set('timezone')}
                error={err('timezone', 'timezone')}
                disabled={!canEdit}
              >
                {zones.map((z) => (
                  <option key={z} value={z}>
                    {z.replaceAll('_', ' ')}
                  </option>
                ))}
              </SelectField>
              <TextField
                label="Site address"
                hint="Where readers find your site; sitemaps, language links and the editor's Preview use it."
                name="siteUrl"
                type="url"
                optional
                placeholder="https://example.com"
                value={form.siteUrl}
                onValue={set('siteUrl')}
                error={err('siteUrl', 'siteUrl')}
                disabled={!canEdit}
              />
            </div>
          </Section>
          <Section id="seo" title="Search and sharing" description="Defaults for pages that do not set their own.">
            <div className="stack">
              <MediaField
                label="Social image"
                hint="Shown when a page is shared and has no image of its own."
                value={form.ogImage}
                onValue={set('ogImage')}
                error={err('ogImage', 'seo.defaultOgImage')}
                disabled={!canEdit}
              />
              <TextAreaField
                label="Description"
                hint="A sentence or two search engines may show."
                optional
                rows={3}
                value={form.description}
                onValue={set('description')}
                error={err('description', 'seo.description')}
                disabled={!canEdit}
                maxLength={500}
              />
              <TextField
                label="Title separator"
                hint="Between a page's title and the site's title, e.g. “Post | Site”."
                name="titleSeparator"
                value={form.titleSeparator}
                onValue={set('titleSeparator')}
                error={err('titleSeparator', 'seo.titleSeparator')}
                disabled={!canEdit}
                maxLength={10}
              />
            </div>
          </Section>
          <ErrorMessage error={save.error} extra={otherIssues(save.error, FIELDS)} />
          {saved ? <Notice tone="success">Settings saved.</Notice> : null}
          {canEdit ? (
            <div className="actions">
              <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…">
                Save settings
              </Button>
            </div>
          ) : null}
        </form>
      ) : null}
      {canEdit ? (
        <div className="settings-transfer">
          <Section
            id="site-transfer"
            title="Site transfer"
            description="Export the whole site as a package for another installation, import a package into this site while it is empty, and answer the requests AI tools make to do either."
          >
            <div className="actions">
              <Link to="/transfer" className="button button--secondary">
                Open site transfer
              </Link>
              <Link to="/transfer" search={{ tab: 'import' }} className="button button--ghost">
                Import a package
              </Link>
              <Link to="/transfer" search={{ tab: 'approvals' }} className="button button--ghost">
                Approval requests
              </Link>
            </div>
          </Section>
          <PreviewSecret />
        </div>
      ) : null}
    </Page>
  );
}

/** Admins: rotate the secret preview links are signed with, ending every link handed out so far. */
function PreviewSecret() {
  const rotate = useMutation({
    mutationFn: () => unwrap(api.POST('/content/preview/rotate', {})),
  });
  return (
    <Section
      id="preview-links"
      title="Preview links"
      description="Links from the editor's Preview button let anyone who has them read that entry's draft until they expire. Rotating the secret ends every link made so far; editors get new ones when they preview again."
    >
      <div className="actions">
        <ConfirmButton
          label="Rotate preview secret"
          confirmLabel="Rotate: end every preview link"
          question="Every preview link handed out so far stops working. Rotate the secret?"
          onConfirm={() => rotate.mutate()}
          busy={rotate.isPending}
        />
      </div>
      <ErrorMessage error={rotate.error} />
      {rotate.data ? (
        <Notice tone="success">Preview secret rotated: every earlier preview link has stopped working.</Notice>
      ) : null}
    </Section>
  );
}
