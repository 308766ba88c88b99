import { useQuery } from '@tanstack/react-query';
import { getUsageProgress, type UsageProgress, usageKeys } from '../../api/mediaUsage';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { Page, Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { ActivationPanel } from './Activation';
import { CollectionTable } from './CollectionTable';
import { RepairPanel } from './Repair';
import { WorkPanel } from './WorkItems';
import { COLLECTION_STATUS_TEXT, COVERAGE_TEXT, STATE_TEXT } from './words';

/** Admins (`schema:manage`): the state of media usage tracking, activation, work items and repair. */
export function MediaUsagePage() {
  const progress = useQuery({ queryKey: usageKeys.progress, queryFn: getUsageProgress });
  const collections = progress.data?.collections.map((c) => c.collection) ?? [];
  return (
    <Page
      title="Media usage"
      description="Which entries and settings use each media item is tracked in an index. Here you can see how far it can be trusted, activate it after an upgrade, and rebuild it."
    >
      <Section id="usage-status" title="Status">
        {progress.isPending ? <Spinner /> : null}
        <ErrorMessage error={progress.error} />
        {progress.data ? <StatusFacts progress={progress.data} /> : null}
      </Section>
      {progress.data ? <ActivationPanel progress={progress.data} /> : null}
      <WorkPanel />
      <RepairPanel collections={collections} />
    </Page>
  );
}

function StatusFacts({ progress }: { progress: UsageProgress }) {
  return (
    <div className="stack">
      <p data-testid="usage-state">{STATE_TEXT[progress.state] ?? `State “${progress.state}”.`}</p>
      <dl className="summary">
        <div>
          <dt>State</dt>
          <dd>
            <code className="code">{progress.state}</code>
          </dd>
        </div>
        <div>
          <dt>Coverage</dt>
          <dd>{COVERAGE_TEXT[progress.coverage] ?? COVERAGE_TEXT.unknown}</dd>
        </div>
        <div>
          <dt>Last error</dt>
          <dd>{progress.lastErrorCode ? <code className="code">{progress.lastErrorCode}</code> : 'None'}</dd>
        </div>
        {progress.activatedAt ? (
          <div>
            <dt>Activated</dt>
            <dd>{formatDateTime(progress.activatedAt)}</dd>
          </div>
        ) : null}
      </dl>
      {progress.collections.length ? (
        <CollectionTable
          caption="Coverage per collection"
          rows={progress.collections.map((c) => ({
            ...c,
            status: COLLECTION_STATUS_TEXT[c.status] ?? c.status,
            errorCode: c.lastErrorCode,
          }))}
        />
      ) : (
        <p className="empty">
          {progress.state === 'expanded'
            ? 'No collection is indexed yet: activation prepares them.'
            : 'No collections yet: there is nothing to index.'}
        </p>
      )}
    </div>
  );
}
