import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CHECK_IDS, type CheckId, type CheckReport, checkSite, repairSite } from '../../api/siteCheck';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { Page, Section } from '../../components/Page';
import { CheckReportView } from './CheckReportView';
import { RepairConfirm } from './RepairConfirm';
import { CHECK_TEXT } from './words';

/**
 * Admins (`site:check`): run the consistency checker on all or some checks, read what each found,
 * and repair what can be derived from the content (docs/operations.md, "Consistency checker").
 */
export function SiteCheckPage() {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<CheckId[]>([...CHECK_IDS]);
  const [report, setReport] = useState<CheckReport | null>(null);
  /** The checks of the report shown: a repair covers the same ones. */
  const [scope, setScope] = useState<CheckId[]>([]);
  const run = useMutation({
    mutationFn: (ids: CheckId[]) => checkSite(ids),
    onMutate: (): void => repair.reset(),
    onSuccess: (r, ids) => {
      setReport(r);
      setScope(ids);
    },
  });
  const repair = useMutation({
    mutationFn: (ids: CheckId[]) => repairSite(ids),
    onMutate: (): void => run.reset(),
    onSuccess: (r) => setReport(r),
    // Counts, indexes and usage the other screens show may have been rebuilt.
    onSettled: () => queryClient.invalidateQueries(),
  });
  const busy = run.isPending || repair.isPending;
  const error = run.error ?? repair.error;
  const toggle = (id: CheckId, on: boolean) =>
    setChosen((list) => CHECK_IDS.filter((x) => (x === id ? on : list.includes(x))));

  return (
    <Page
      title="Site health"
      description="Checks that what the site derives from its content — revision pointers, term counts, search indexes, media usage, stored files — still matches it, and repairs what can be rebuilt. Checking reads only."
    >
      <Section id="site-check-run" title="Run a check">
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen.length) run.mutate(chosen);
          }}
        >
          <fieldset className="site-check-picker">
            <legend className="field__label">Checks</legend>
            <div className="checks">
              {CHECK_IDS.map((id) => (
                <label key={id} className="check">
                  <input
                    type="checkbox"
                    name="checks"
                    value={id}
                    checked={chosen.includes(id)}
                    onChange={(e) => toggle(id, e.target.checked)}
                  />
                  <span>
                    {CHECK_TEXT[id].label}
                    <span className="check__hint">{CHECK_TEXT[id].hint}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="actions">
            <Button
              type="submit"
              variant="primary"
              busy={run.isPending}
              busyLabel="Checking…"
              disabled={busy || !chosen.length}
            >
              {chosen.length === CHECK_IDS.length ? 'Run all checks' : 'Run the chosen checks'}
            </Button>
            {chosen.length < CHECK_IDS.length ? (
              <Button variant="ghost" onClick={() => setChosen([...CHECK_IDS])}>
                Choose all
              </Button>
            ) : null}
            {chosen.length ? null : <span className="field__hint">Choose at least one check.</span>}
          </div>
        </form>
      </Section>

      <Section id="site-check-report" title="Report">
        {busy ? (
          <Spinner
            label={
              run.isPending ? 'Checking the site… large sites take a while.' : 'Repairing… large sites take a while.'
            }
          />
        ) : null}
        <ErrorMessage error={error} showCode />
        {report ? (
          <CheckReportView report={report} />
        ) : busy || error ? null : (
          <p className="empty">No check has run yet. Choose the checks above and run them: checking changes nothing.</p>
        )}
      </Section>

      {report && report.status === 'problems' ? (
        <Section
          id="site-check-repair"
          title="Repair"
          description={
            canRepair(report)
              ? 'Fixes what can be derived from the rest of the data, for the checks in the report above. The report after repair replaces it.'
              : 'None of the problems listed can be derived from the rest of the data: they need a person (a missing file is uploaded again, for instance).'
          }
        >
          {canRepair(report) ? <RepairConfirm busy={repair.isPending} onConfirm={() => repair.mutate(scope)} /> : null}
        </Section>
      ) : null}
    </Page>
  );
}

/** Whether anything left may be repairable: a listed finding says so, or some were not listed. */
const canRepair = (report: CheckReport) =>
  report.checks.some((c) => c.findings.length < c.problems || c.findings.some((f) => f.repairable && !f.repaired));
