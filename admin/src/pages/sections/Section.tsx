import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { keys, type Section as SectionRecord } from '../../api/structure';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { RichTextField } from '../../components/RichTextField';
import { issueFor, otherIssues } from '../../lib/forms';
import { useEntryForm } from '../content/editor/useEntryForm';

interface SectionDraft {
  title: string;
  slug: string;
  description: string;
  content: unknown[];
}

/** Edit one section: title, slug, description and its rich text. */
export function SectionPage({ slug }: { slug: string }) {
  const section = useQuery({
    queryKey: [...keys.sections, slug],
    queryFn: () => unwrap(api.GET('/sections/{slug}', { params: { path: { slug } } })),
  });
  return (
    <Page
      title={section.data?.title ?? 'Section'}
      actions={
        <Link to="/sections" className="button button--ghost button--small">
          All sections
        </Link>
      }
    >
      {section.isPending ? <Spinner /> : null}
      {section.isError ? <ErrorMessage error={section.error} /> : null}
      {section.data ? <SectionForm section={section.data} /> : null}
    </Page>
  );
}

function SectionForm({ section }: { section: SectionRecord }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const first: SectionDraft = {
    title: section.title,
    slug: section.slug,
    description: section.description ?? '',
    content: section.content ?? [],
  };
  // Held as the entry editor holds its form: a save reads what is on screen at that moment, and
  // rich text JSON that does not parse is an unfinished change that stops it.
  const { form, update, current, unfinished, unfinishedNow, reportUnfinished } = useEntryForm(first);
  const { title, slug, description, content } = form ?? first;
  const edit = (patch: Partial<SectionDraft>) => update((cur) => ({ ...cur, ...patch }));
  const [saved, setSaved] = useState(false);
  const [refused, setRefused] = useState<ApiError | null>(null);
  // Any edit after a save, finished or not, takes the “saved” notice away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each edit on purpose
  useEffect(() => setSaved(false), [form, unfinished]);
  const open = Object.keys(unfinished).length > 0;
  const save = useMutation({
    mutationFn: (d: SectionDraft) =>
      unwrap(
        api.PUT('/sections/{slug}', {
          params: { path: { slug: section.slug } },
          body: { title: d.title, slug: d.slug, description: d.description.trim() || null, content: d.content },
        }),
      ),
    onSuccess: (s, sent) => {
      queryClient.invalidateQueries({ queryKey: keys.sections });
      // Saved is said only while what is shown is what was stored.
      setSaved(current() === sent && Object.keys(unfinishedNow()).length === 0);
      if (s.slug !== section.slug) navigate({ to: '/sections/$slug', params: { slug: s.slug }, replace: true });
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/sections/{slug}', { params: { path: { slug: section.slug } } })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: keys.sections });
      navigate({ to: '/sections' });
    },
  });
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
  const refusal = open ? refused : null;
  const contentIssue = save.error && !refusal ? otherIssues(save.error, ['title', 'slug', 'description']) : [];
  return (
    <form onSubmit={submit} noValidate>
      <Section id="details" title="Details">
        <div className="stack">
          <div className="grid-2">
            <TextField
              label="Title"
              name="title"
              value={title}
              onValue={(v) => edit({ title: v })}
              error={issueFor(save.error, 'title')}
            />
            <TextField
              label="Slug"
              hint="How your site asks for this section."
              name="slug"
              value={slug}
              onValue={(v) => edit({ slug: v })}
              error={issueFor(save.error, 'slug')}
            />
          </div>
          <TextField
            label="Description"
            hint="Where it is used, for other editors."
            name="description"
            optional
            value={description}
            onValue={(v) => edit({ description: v })}
            error={issueFor(save.error, 'description')}
          />
        </div>
      </Section>
      <Section id="content" title="Content">
        <RichTextField
          label="Text"
          value={content}
          onValue={(v) => edit({ content: v })}
          path="content"
          reportUnfinished={reportUnfinished}
        />
      </Section>
      <ErrorMessage error={refusal ?? save.error} extra={contentIssue} />
      {saved ? <Notice tone="success">Section saved.</Notice> : null}
      <div className="actions">
        <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…">
          Save section
        </Button>
        <ConfirmButton
          label="Delete section"
          question="Delete this section? Widgets showing it will report it missing."
          confirmLabel="Delete"
          onConfirm={() => remove.mutate()}
          busy={remove.isPending}
        />
      </div>
      <ErrorMessage error={remove.error} />
    </form>
  );
}
