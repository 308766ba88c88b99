import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/structure';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { issueFor, otherIssues } from '../../lib/forms';

/** Editors: reusable blocks of rich text, found by title. */
export function SectionsPage() {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useInfiniteQuery({
    queryKey: [...keys.sections, { search }],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/sections', { params: { query: { search: search || undefined, cursor: pageParam, limit: 50 } } }),
      ),
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Page
      title="Sections"
      description="Reusable blocks of text — a newsletter sign-up, a disclaimer — that your site places wherever it needs them."
    >
      <CreateSection />
      <Section id="section-list" title="Your sections">
        <TextField label="Find a section" name="section-search" type="search" value={text} onValue={setText} />
        {list.isPending ? <Spinner /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !items.length ? (
          <p className="empty">{search ? 'No section matches.' : 'No sections yet. Create one above.'}</p>
        ) : null}
        {items.length ? (
          <ul className="rows" aria-label="Sections">
            {items.map((s) => (
              <li key={s.id} className="row">
                <div className="row__main">
                  <p className="row__title">
                    <Link to="/sections/$slug" params={{ slug: s.slug }}>
                      {s.title}
                    </Link>
                  </p>
                  <p className="row__meta">
                    <span className="chip">{s.slug}</span>
                    <span>
                      {s.blockCount} {s.blockCount === 1 ? 'block' : 'blocks'}
                    </span>
                    {s.description ? <span>{s.description}</span> : null}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        ) : null}
        {list.hasNextPage ? (
          <Button size="small" variant="ghost" onClick={() => list.fetchNextPage()} busy={list.isFetchingNextPage}>
            Show more
          </Button>
        ) : null}
      </Section>
    </Page>
  );
}

function CreateSection() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [local, setLocal] = useState<string | undefined>();
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/sections', { body: { title: title.trim(), content: [] } })),
    onSuccess: (s) => {
      queryClient.invalidateQueries({ queryKey: keys.sections });
      navigate({ to: '/sections/$slug', params: { slug: s.slug } });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!title.trim()) {
      setLocal('Enter a title.');
      return;
    }
    setLocal(undefined);
    create.mutate();
  }
  return (
    <Section id="new-section" title="New section">
      <form className="inline-form" onSubmit={submit} noValidate>
        <TextField
          label="Title"
          name="section-title"
          value={title}
          onValue={setTitle}
          error={local ?? issueFor(create.error, 'title')}
        />
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create section
        </Button>
      </form>
      <ErrorMessage error={create.error} extra={otherIssues(create.error, ['title'])} />
    </Section>
  );
}
