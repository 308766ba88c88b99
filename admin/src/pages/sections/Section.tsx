import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys, type Section as SectionRecord } from '../../api/structure';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { RichTextField } from '../../components/RichTextField';
import { issueFor, otherIssues } from '../../lib/forms';

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
  const [title, setTitle] = useState(section.title);
  const [slug, setSlug] = useState(section.slug);
  const [description, setDescription] = useState(section.description ?? '');
  const [content, setContent] = useState<unknown[]>(section.content ?? []);
  const [saved, setSaved] = useState(false);
  // Any edit after a save takes the “saved” notice away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each edit on purpose
  useEffect(() => setSaved(false), [title, slug, description, content]);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/sections/{slug}', {
          params: { path: { slug: section.slug } },
          body: { title, slug, description: description.trim() || null, content },
        }),
      ),
    onSuccess: (s) => {
      queryClient.invalidateQueries({ queryKey: keys.sections });
      setSaved(true);
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
    save.mutate();
  }
  const contentIssue = save.error ? otherIssues(save.error, ['title', 'slug', 'description']) : [];
  return (
    <form onSubmit={submit} noValidate>
      <Section id="details" title="Details">
        <div className="stack">
          <div className="grid-2">
            <TextField
              label="Title"
              name="title"
              value={title}
              onValue={setTitle}
              error={issueFor(save.error, 'title')}
            />
            <TextField
              label="Slug"
              hint="How your site asks for this section."
              name="slug"
              value={slug}
              onValue={setSlug}
              error={issueFor(save.error, 'slug')}
            />
          </div>
          <TextField
            label="Description"
            hint="Where it is used, for other editors."
            name="description"
            optional
            value={description}
            onValue={setDescription}
            error={issueFor(save.error, 'description')}
          />
        </div>
      </Section>
      <Section id="content" title="Content">
        <RichTextField label="Text" value={content} onValue={setContent} />
      </Section>
      <ErrorMessage error={save.error} extra={contentIssue} />
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
