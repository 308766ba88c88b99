import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/structure';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { issueFor, otherIssues } from '../../lib/forms';
import { machineName } from '../taxonomies/Taxonomies';

/** Editors: the places your site shows widgets in (sidebar, footer …). */
export function WidgetAreasPage() {
  const list = useQuery({
    queryKey: keys.widgetAreas,
    queryFn: () => unwrap(api.GET('/widget-areas', { params: { query: { limit: 100 } } })),
  });
  const items = list.data?.items ?? [];
  return (
    <Page
      title="Widget areas"
      description="Places your site fills with widgets: a menu, a section, a list of tags or the latest posts."
    >
      <CreateArea />
      <Section id="area-list" title="Your widget areas">
        {list.isPending ? <Spinner /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !items.length ? (
          <p className="empty">No widget areas yet. Create one for each place your site's templates show widgets.</p>
        ) : null}
        {items.length ? (
          <ul className="rows" aria-label="Widget areas">
            {items.map((a) => (
              <li key={a.id} className="row">
                <div className="row__main">
                  <p className="row__title">
                    <Link to="/widgets/$name" params={{ name: a.name }}>
                      {a.label}
                    </Link>
                  </p>
                  <p className="row__meta">
                    <span className="chip">{a.name}</span>
                    <span>
                      {a.widgetCount} {a.widgetCount === 1 ? 'widget' : 'widgets'}
                    </span>
                  </p>
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </Section>
    </Page>
  );
}

function CreateArea() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [label, setLabel] = useState('');
  const [local, setLocal] = useState<string | undefined>();
  const create = useMutation({
    mutationFn: (body: { name: string; label: string }) => unwrap(api.POST('/widget-areas', { body })),
    onSuccess: (a) => {
      queryClient.invalidateQueries({ queryKey: keys.widgetAreas });
      navigate({ to: '/widgets/$name', params: { name: a.name } });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const name = machineName(label);
    if (!name) {
      setLocal('Enter a name such as “Sidebar”.');
      return;
    }
    setLocal(undefined);
    create.mutate({ name, label: label.trim() });
  }
  const name = machineName(label);
  return (
    <Section id="new-area" title="New widget area">
      <form className="inline-form" onSubmit={submit} noValidate>
        <TextField
          label="Name"
          hint={name ? `Templates ask for it as “${name}”.` : undefined}
          name="area-label"
          placeholder="Sidebar"
          value={label}
          onValue={setLabel}
          error={local ?? issueFor(create.error, 'label') ?? issueFor(create.error, 'name')}
        />
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create area
        </Button>
      </form>
      <ErrorMessage error={create.error} extra={otherIssues(create.error, ['label', 'name'])} />
    </Section>
  );
}
