import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';

type Stats = Schemas['SearchStats'];
type IndexStatus = Schemas['CollectionSearchStatus'];
type Tokenizer = IndexStatus['tokenizer'];

const TOKENIZERS: Array<{ value: Tokenizer; label: string; hint: string }> = [
  { value: 'porter unicode61', label: 'English', hint: 'Finds word forms: run, runs, running' },
  { value: 'unicode61', label: 'Any language, exact words', hint: 'Words as written, accents and case ignored' },
  { value: 'trigram', label: 'Substrings', hint: 'Japanese, Chinese, Thai… or parts of words; 3 characters or more' },
];

/** Index states for Editors; polls while a rebuild runs. */
export function useSearchStats(enabled: boolean) {
  return useQuery({
    queryKey: ['search-stats'],
    queryFn: () => unwrap(api.GET('/search/stats')),
    enabled,
    refetchInterval: (q) => (q.state.data?.collections.some((c) => c.state === 'building') ? 1000 : false),
  });
}

const size = (bytes: number | null) =>
  bytes === null
    ? '—'
    : bytes < 1024 * 1024
      ? `${Math.ceil(bytes / 1024)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What a rebuild is doing: indexing entries, compacting the new index, then listing the best entries of common words. */
function buildStep(build: { phase: string; done: number; total: number }): string {
  const of = `${build.done.toLocaleString()} of ${build.total.toLocaleString()}`;
  if (build.phase === 'merging') return 'Compacting the new index';
  if (build.phase === 'ranking') return `Ranking common words: ${of} documents`;
  return `${of} entries`;
}

/** Editors: turn search on per collection, choose how text is split into words, weigh fields, rebuild. */
export function SearchIndexes({ stats }: { stats: UseQueryResult<Stats> }) {
  const list = stats.data?.collections ?? [];
  return (
    <Section
      id="indexes"
      title="Search indexes"
      description="Which collections are searchable, how their text is split into words and which fields count most."
    >
      {stats.isPending ? <Spinner label="Loading indexes…" /> : null}
      {stats.isError ? <ErrorMessage error={stats.error} /> : null}
      {stats.isSuccess && !list.length ? (
        <p className="empty">No collections yet. Create one in the schema, then enable search for it here.</p>
      ) : null}
      <ul className="indexes">
        {list.map((c) => (
          <IndexRow key={c.collection} status={c} />
        ))}
      </ul>
    </Section>
  );
}

function IndexRow({ status }: { status: IndexStatus }) {
  const queryClient = useQueryClient();
  const [tokenizer, setTokenizer] = useState<Tokenizer>(status.tokenizer);
  const [weights, setWeights] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(status.weights).map(([k, v]) => [k, String(v)])),
  );
  const [notice, setNotice] = useState<string | null>(null);
  const done = (message: string) => async () => {
    setNotice(message);
    await queryClient.invalidateQueries({ queryKey: ['search-stats'] });
    await queryClient.invalidateQueries({ queryKey: ['search'] });
  };
  const enable = useMutation({
    mutationFn: (body: Schemas['EnableSearchRequest']) => unwrap(api.POST('/search/enable', { body })),
  });
  const rebuild = useMutation({
    mutationFn: () => unwrap(api.POST('/search/rebuild', { body: { collection: status.collection } })),
    // Small collections are rebuilt within the request; larger ones go on in the background.
    onSuccess: (report) =>
      done(report.state === 'ready' ? 'Index rebuilt.' : 'Rebuild started; its progress shows above.')(),
  });
  const fields = Object.keys(status.weights);
  const headingId = `index-${status.collection}`;
  const building = status.state === 'building' && status.build;
  const numbers = Object.fromEntries(Object.entries(weights).map(([k, v]) => [k, Number(v)]));
  const weightsChanged = fields.some((f) => numbers[f] !== status.weights[f]);

  return (
    <li className="index" aria-labelledby={headingId}>
      <div className="index__head">
        <h3 id={headingId} className="index__name">
          {status.collection}
        </h3>
        <span className={status.enabled ? 'status status--on' : 'status status--off'}>
          {status.state === 'ready' ? 'Searchable' : status.state === 'building' ? 'Rebuilding' : 'Off'}
        </span>
      </div>
      {building ? (
        <div className="index__progress">
          <progress value={status.build?.done ?? 0} max={Math.max(1, status.build?.total ?? 1)} />
          <span>
            {status.build ? buildStep(status.build) : null} · {status.build?.reason}
          </span>
        </div>
      ) : null}
      {status.enabled ? (
        <dl className="index__facts">
          <div>
            <dt>Documents</dt>
            <dd>{status.documents?.toLocaleString() ?? '—'}</dd>
          </div>
          <div>
            <dt>Size</dt>
            <dd>{size(status.sizeBytes)}</dd>
          </div>
          <div>
            <dt>Last rebuild</dt>
            <dd>{status.lastRebuildAt ? formatDateTime(status.lastRebuildAt) : '—'}</dd>
          </div>
        </dl>
      ) : null}
      <div className="index__form">
        <label className="field">
          <span className="field__label">Words</span>
          <select
            className="input select"
            value={tokenizer}
            onChange={(e) => setTokenizer(e.target.value as Tokenizer)}
            aria-describedby={`${headingId}-tok`}
          >
            {TOKENIZERS.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
          <span id={`${headingId}-tok`} className="field__hint">
            {TOKENIZERS.find((t) => t.value === tokenizer)?.hint}
          </span>
        </label>
        {fields.length ? (
          <fieldset className="index__weights">
            <legend className="field__label">Field weights</legend>
            {fields.map((f) => (
              <label key={f} className="index__weight">
                <span>{f}</span>
                <input
                  className="input input--small index__weight-input"
                  type="number"
                  min={0.01}
                  max={100}
                  step="any"
                  inputMode="decimal"
                  value={weights[f] ?? ''}
                  onChange={(e) => setWeights((w) => ({ ...w, [f]: e.target.value }))}
                />
              </label>
            ))}
          </fieldset>
        ) : (
          <p className="field__hint">No searchable fields yet: mark fields “searchable” in the schema.</p>
        )}
      </div>
      <ErrorMessage error={enable.error ?? rebuild.error} />
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      <div className="actions">
        {!status.enabled ? (
          <Button
            variant="primary"
            busy={enable.isPending}
            busyLabel="Enabling…"
            onClick={() =>
              enable.mutate(
                { collection: status.collection, enabled: true, tokenizer, weights: numbers },
                { onSuccess: done('Search enabled.') },
              )
            }
          >
            Enable search
          </Button>
        ) : (
          <>
            {tokenizer !== status.tokenizer ? (
              <ConfirmButton
                label="Apply and rebuild"
                confirmLabel="Rebuild now"
                question="Changing how words are split rebuilds the whole index."
                busy={enable.isPending}
                onConfirm={() =>
                  enable.mutate(
                    { collection: status.collection, tokenizer, weights: numbers },
                    { onSuccess: done('Tokenizer changed; the index is rebuilt.') },
                  )
                }
              />
            ) : weightsChanged ? (
              <Button
                variant="primary"
                busy={enable.isPending}
                busyLabel="Saving…"
                onClick={() =>
                  enable.mutate(
                    { collection: status.collection, weights: numbers },
                    { onSuccess: done('Weights saved.') },
                  )
                }
              >
                Save weights
              </Button>
            ) : null}
            <Button busy={rebuild.isPending || !!building} busyLabel="Rebuilding…" onClick={() => rebuild.mutate()}>
              Rebuild index
            </Button>
            <ConfirmButton
              label="Turn off search"
              confirmLabel="Turn off"
              question="Searches stop finding this collection; its settings are kept."
              busy={enable.isPending}
              onConfirm={() =>
                enable.mutate(
                  { collection: status.collection, enabled: false },
                  { onSuccess: done('Search turned off. Settings are kept for the next time.') },
                )
              }
            />
          </>
        )}
      </div>
    </li>
  );
}
