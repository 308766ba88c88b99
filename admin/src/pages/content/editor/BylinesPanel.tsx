import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type Byline, bylinesApi } from '../../../api/bylines';
import { Button } from '../../../components/Button';
import { ErrorMessage } from '../../../components/Feedback';
import type { FormState } from './form';
import { Panel } from './Panels';

type Credits = FormState['credits'];

/**
 * Byline credits in order (the first is the primary byline). Bylines come
 * from the byline routes outside the documented API (see api/bylines.ts);
 * Editors can add a guest byline here.
 */
export function BylinesPanel({
  credits,
  onChange,
  locale,
  readOnly,
  canManage,
}: {
  credits: Credits;
  onChange: (next: Credits) => void;
  locale: string;
  readOnly: boolean;
  canManage: boolean;
}) {
  const [q, setQ] = useState('');
  const [term, setTerm] = useState('');
  const [newName, setNewName] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setTerm(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);
  const found = useQuery({
    queryKey: ['bylines', locale, 'search', term],
    queryFn: () => bylinesApi.list({ locale, search: term || undefined, limit: 8 }),
    enabled: !readOnly,
  });
  const create = useMutation({
    mutationFn: (displayName: string) => bylinesApi.create({ displayName, locale }),
    onSuccess: (b) => {
      add(b);
      setNewName('');
    },
  });
  const chosen = new Set(credits.map((c) => c.byline.id));
  const add = (b: Byline) => onChange([...credits, { byline: b, roleLabel: null }]);
  const move = (i: number, by: number) => {
    const next = [...credits];
    const [x] = next.splice(i, 1);
    next.splice(i + by, 0, x);
    onChange(next);
  };
  return (
    <Panel id="bylines" title={`Bylines (${credits.length})`} open={credits.length > 0}>
      {credits.length ? (
        <ol className="mini-rows">
          {credits.map((cr, i) => (
            <li key={cr.byline.id} className="mini-row mini-row--stack">
              <div className="mini-row__line">
                <strong>{cr.byline.displayName}</strong>
                {i === 0 ? <span className="pill">primary</span> : null}
                {cr.byline.userId ? null : <span className="muted small">guest</span>}
              </div>
              {readOnly ? (
                cr.roleLabel ? (
                  <span className="muted small">{cr.roleLabel}</span>
                ) : null
              ) : (
                <div className="mini-row__line">
                  <input
                    className="input input--small"
                    aria-label={`Role of ${cr.byline.displayName}`}
                    placeholder="Role (e.g. Photos)"
                    maxLength={100}
                    value={cr.roleLabel ?? ''}
                    onChange={(e) =>
                      onChange(credits.map((x, j) => (j === i ? { ...x, roleLabel: e.target.value || null } : x)))
                    }
                  />
                  <Button
                    size="small"
                    variant="ghost"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={`Move ${cr.byline.displayName} up`}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    variant="ghost"
                    className="button--quiet-danger"
                    onClick={() => onChange(credits.filter((_, j) => j !== i))}
                  >
                    Remove<span className="visually-hidden"> {cr.byline.displayName}</span>
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted small">No credits: the entry is attributed to its author.</p>
      )}
      {readOnly ? null : (
        <>
          <label className="field__label" htmlFor="byline-search">
            Add a byline
          </label>
          <input
            id="byline-search"
            className="input input--small"
            type="search"
            value={q}
            placeholder="Search by name"
            onChange={(e) => setQ(e.target.value)}
          />
          <ul className="mini-rows">
            {(found.data?.items ?? [])
              .filter((b) => !chosen.has(b.id))
              .map((b) => (
                <li key={b.id} className="mini-row">
                  <span>{b.displayName}</span>
                  <Button size="small" onClick={() => add(b)}>
                    Add<span className="visually-hidden"> {b.displayName}</span>
                  </Button>
                </li>
              ))}
          </ul>
          {found.isSuccess && !found.data.items.length ? <p className="muted small">No byline matches.</p> : null}
          {canManage ? (
            <form
              className="mini-row"
              onSubmit={(e) => {
                e.preventDefault();
                if (newName.trim()) create.mutate(newName.trim());
              }}
            >
              <input
                className="input input--small"
                aria-label="Name of a new guest byline"
                placeholder="New guest byline"
                value={newName}
                onChange={(e) => setNewName(e.target.value)}
              />
              <Button size="small" type="submit" busy={create.isPending}>
                Create
              </Button>
            </form>
          ) : null}
          <ErrorMessage error={create.error} />
        </>
      )}
    </Panel>
  );
}
