import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Orphan } from '../../api/content';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { typeLabel } from '../../lib/fieldTypes';

/** Admin: entry tables without a collection (left by a restore or a manual change) and registering them again. */
export function OrphansPage() {
  const list = useQuery({ queryKey: ['schema', 'orphans'], queryFn: () => unwrap(api.GET('/schema/orphans')) });
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Page
      title="Orphaned tables"
      description="Tables named ec_… that no collection describes. Registering one makes it a collection again, with its rows as entries."
      actions={
        <Link to="/schema" className="button button--ghost button--small">
          Schema
        </Link>
      }
    >
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      <Section id="orphans" title="Tables">
        {list.isPending ? <Spinner /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !list.data.items.length ? (
          <p className="empty">No orphaned tables: every entry table belongs to a collection.</p>
        ) : null}
        <ul className="rows" hidden={!list.data?.items.length}>
          {(list.data?.items ?? []).map((o) => (
            <OrphanRow key={o.slug} orphan={o} onDone={(m) => setNotice(m)} />
          ))}
        </ul>
      </Section>
    </Page>
  );
}

function OrphanRow({ orphan, onDone }: { orphan: Orphan; onDone: (m: string) => void }) {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState(orphan.slug);
  const register = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/schema/orphans/{slug}', { params: { path: { slug: orphan.slug } }, body: { label } })),
    onSuccess: async (c) => {
      await queryClient.invalidateQueries({ queryKey: ['schema'] });
      await queryClient.invalidateQueries({ queryKey: ['content-model'] });
      onDone(`Registered ${c.label}: its ${orphan.rowCount} rows are entries again.`);
    },
  });
  return (
    <li className="row row--stack">
      <div className="row__main">
        <p className="row__title">
          <code className="code">{orphan.table}</code> · {orphan.rowCount.toLocaleString()} rows
        </p>
        <p className="row__meta">
          {orphan.columns.map((col) => (
            <span key={col.name}>
              {col.name} → {typeLabel(col.fieldType)}
            </span>
          ))}
        </p>
        {orphan.missingSystemColumns.length ? (
          <p className="small muted">
            Missing system columns (added on registration): {orphan.missingSystemColumns.join(', ')}
          </p>
        ) : null}
      </div>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          register.mutate();
        }}
      >
        <TextField label="Collection name" name={`label-${orphan.slug}`} value={label} onValue={setLabel} />
        <Button type="submit" busy={register.isPending}>
          Register
        </Button>
      </form>
      <ErrorMessage error={register.error} />
    </li>
  );
}
