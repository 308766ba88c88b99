import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { repairUsage, type UsageRepair, usageKeys } from '../../api/mediaUsage';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice } from '../../components/Feedback';
import { SelectField } from '../../components/Field';
import { Section } from '../../components/Page';
import { CollectionTable } from './CollectionTable';

const RESULT_TEXT: Record<UsageRepair['status'], string> = {
  complete: 'Every entry was read and indexed.',
  partial: 'Some entries could not be read and were skipped (see the skipped counts).',
  failed: 'A step failed (see the error codes); the rest was indexed.',
  stale: 'A collection’s schema changed while the repair ran: run it again.',
};

/** Rebuild the index of one collection or of all, and show what the repair reports. */
export function RepairPanel({ collections }: { collections: string[] }) {
  const queryClient = useQueryClient();
  const [scope, setScope] = useState('');
  const repair = useMutation({
    mutationFn: () => repairUsage(scope ? { scope: 'collection', collection: scope } : { scope: 'all' }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: usageKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['media'] });
    },
  });
  const result = repair.data;
  return (
    <Section
      id="usage-repair"
      title="Repair"
      description="Rebuilds the index from the stored entries, one collection after the other. Use it after a partial, failed or stale coverage. Large sites may take a while; the page waits for the answer."
    >
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          repair.mutate();
        }}
      >
        <SelectField label="Scope" name="repair-scope" value={scope} onValue={setScope}>
          <option value="">All collections</option>
          {collections.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="primary" busy={repair.isPending} busyLabel="Repairing…">
          Run repair
        </Button>
      </form>
      <ErrorMessage error={repair.error} />
      {result ? (
        <div className="stack">
          <Notice tone={result.status === 'complete' ? 'success' : 'info'}>
            Repair result: <strong data-testid="repair-status">{result.status}</strong>. {RESULT_TEXT[result.status]}
          </Notice>
          {result.collections.length ? (
            <CollectionTable caption="Repair per collection" rows={result.collections} withReferences />
          ) : (
            <p className="empty">No collections to repair.</p>
          )}
        </div>
      ) : null}
    </Section>
  );
}
