import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { Button } from '../../../components/Button';
import { ErrorMessage, Notice } from '../../../components/Feedback';
import { TextAreaField, TextField } from '../../../components/Field';
import { issueFor } from '../../../lib/forms';
import { Panel } from './Panels';

interface Form {
  title: string;
  description: string;
  canonical: string;
  noindex: boolean;
}

/**
 * The entry's SEO object (collections with `supports: seo`): search title,
 * description, canonical address and noindex, as the SEO domain defines them.
 * Saved on its own (`PUT /seo/{collection}/{id}`): it belongs to this
 * translation and is not part of the entry's revisions.
 */
export function SeoPanel({
  collection,
  entryId,
  readOnly,
}: {
  collection: string;
  entryId: string;
  readOnly: boolean;
}) {
  const queryClient = useQueryClient();
  const key = ['seo', collection, entryId];
  const path = { collection, id: entryId };
  const seo = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/seo/{collection}/{id}', { params: { path } })),
  });
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (seo.data && form === null) {
      setForm({
        title: seo.data.title ?? '',
        description: seo.data.description ?? '',
        canonical: seo.data.canonical ?? '',
        noindex: seo.data.noindex,
      });
    }
  }, [seo.data, form]);
  const save = useMutation({
    mutationFn: (f: Form) =>
      unwrap(
        api.PUT('/seo/{collection}/{id}', {
          params: { path },
          body: {
            title: f.title.trim() || null,
            description: f.description.trim() || null,
            canonical: f.canonical.trim() || null,
            noindex: f.noindex,
          },
        }),
      ),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      setSaved(true);
    },
  });
  const set =
    <K extends keyof Form>(k: K) =>
    (v: Form[K]) => {
      setSaved(false);
      setForm((f) => (f ? { ...f, [k]: v } : f));
    };
  function submit(e: FormEvent) {
    e.preventDefault();
    if (form) save.mutate(form);
  }
  const filled = Boolean(
    seo.data && (seo.data.title || seo.data.description || seo.data.canonical || seo.data.noindex),
  );
  return (
    <Panel id="seo" title="SEO" open={filled}>
      <ErrorMessage error={seo.error} />
      {form ? (
        // A form of its own, outside the entry's form: Enter here saves the SEO settings only.
        <form className="stack" noValidate onSubmit={submit} aria-label="SEO settings">
          <TextField
            label="Search title"
            hint="Shown by search engines instead of the entry title."
            optional
            value={form.title}
            onValue={set('title')}
            disabled={readOnly}
            error={issueFor(save.error, 'title')}
          />
          <TextAreaField
            label="Description"
            optional
            rows={3}
            value={form.description}
            onValue={set('description')}
            disabled={readOnly}
            error={issueFor(save.error, 'description')}
          />
          <TextField
            label="Canonical address"
            hint="Only when another address is the original of this page."
            optional
            spellCheck={false}
            placeholder="https://…"
            value={form.canonical}
            onValue={set('canonical')}
            disabled={readOnly}
            error={issueFor(save.error, 'canonical')}
          />
          <label className="check check--inline">
            <input
              type="checkbox"
              checked={form.noindex}
              disabled={readOnly}
              onChange={(e) => set('noindex')(e.target.checked)}
            />
            <span>Hide from search engines (noindex; left out of sitemaps)</span>
          </label>
          <ErrorMessage error={save.error} />
          {saved ? <Notice tone="success">SEO settings saved.</Notice> : null}
          {readOnly ? null : (
            <div>
              <Button type="submit" size="small" busy={save.isPending}>
                Save SEO
              </Button>
            </div>
          )}
        </form>
      ) : null}
    </Panel>
  );
}
