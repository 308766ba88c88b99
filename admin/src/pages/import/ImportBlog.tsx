import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  type Analysis,
  analyzeExport,
  type ExecuteResult,
  executeImport,
  type ImportProgress,
  prepareImport,
} from '../../api/import';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice } from '../../components/Feedback';
import { Page, Section } from '../../components/Page';
import { useLocales } from '../../lib/locales';
import { AnalysisSummary } from './AnalysisSummary';
import {
  type Choices,
  executeConfig,
  includedCount,
  initialChoices,
  needsPrepare,
  prepareBody,
  slugErrors,
} from './choices';
import { ImportReport } from './ImportReport';
import { MediaStep } from './MediaStep';
import { ReviewStep } from './ReviewStep';

const STAGE: Record<ImportProgress['stage'], string> = {
  check: 'Checking the file',
  import: 'Importing items',
  menus: 'Importing menus',
  done: 'Finishing',
};

/**
 * Admin: import a WordPress export file — upload and analyze, review the
 * mappings, prepare the schema, import with live progress, copy the media.
 * Each step unlocks the next; the file stays in the browser between them.
 */
export function ImportBlogPage() {
  const queryClient = useQueryClient();
  const { defaultLocale } = useLocales();
  const [file, setFile] = useState<File | null>(null);
  const [choices, setChoices] = useState<Choices | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [progress, setProgress] = useState<ImportProgress | null>(null);

  const analyze = useMutation({
    mutationFn: (f: File) => analyzeExport(f),
    onSuccess: (a: Analysis) => {
      setChoices(initialChoices(a, defaultLocale));
      prepare.reset();
      execute.reset();
    },
  });
  const prepare = useMutation({
    mutationFn: (a: Analysis) => prepareImport(prepareBody(a, choices as Choices)),
    // New collections appear in the sidebar and the review's suggestions.
    onSettled: () => queryClient.invalidateQueries(),
  });
  const execute = useMutation({
    mutationFn: ({ f, a }: { f: File; a: Analysis }) => {
      setProgress(null);
      return executeImport(f, executeConfig(a, choices as Choices), setProgress);
    },
    onSettled: () => queryClient.invalidateQueries(),
  });

  function submitFile(e: FormEvent) {
    e.preventDefault();
    if (!file) {
      setFileError('Choose an export file (.xml or .xml.gz) first.');
      return;
    }
    setFileError(undefined);
    analyze.mutate(file);
  }

  const analysis = analyze.data;
  const errors = analysis && choices ? slugErrors(analysis, choices) : {};
  const hasErrors = Object.keys(errors).length > 0;
  const mustPrepare = analysis && choices ? needsPrepare(analysis, choices) : false;
  const prepared = prepare.data;
  const result: ExecuteResult | undefined = execute.data;
  const readyToImport =
    analysis && choices && !hasErrors && includedCount(analysis, choices) > 0 && (!mustPrepare || prepared?.success);

  return (
    <Page
      title="Import from WordPress"
      description="Copy a WordPress site's posts, pages, terms, comments, menus and media from its export file (Tools → Export in WordPress)."
    >
      <Section id="import-upload" title="1. Export file">
        <form className="import-upload" onSubmit={submitFile} noValidate>
          <div className={fileError ? 'field field--invalid' : 'field'}>
            <label className="field__label" htmlFor="import-file">
              WordPress export (.xml or .xml.gz)
            </label>
            <input
              id="import-file"
              name="file"
              type="file"
              className="input"
              accept=".xml,.gz,application/xml,text/xml,application/gzip"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                analyze.reset();
                setChoices(null);
              }}
            />
            {fileError ? (
              <p className="field__error">
                <span aria-hidden="true">⚠ </span>
                {fileError}
              </p>
            ) : null}
          </div>
          <Button type="submit" variant="primary" busy={analyze.isPending} busyLabel="Analyzing…">
            Analyze
          </Button>
        </form>
        <ErrorMessage error={analyze.error} />
        {analysis ? <AnalysisSummary analysis={analysis} /> : null}
        {!analysis && !analyze.isPending ? (
          <p className="empty">Nothing is imported until you confirm: analyzing only reads the file.</p>
        ) : null}
      </Section>

      {analysis && choices && analysis.postTypes.length ? (
        <Section
          id="import-review"
          title="2. Review"
          description="Choose where each content type goes. Existing fields are never changed."
        >
          <ReviewStep
            analysis={analysis}
            choices={choices}
            errors={errors}
            onChange={(c) => {
              setChoices(c);
              // A changed mapping must be prepared again.
              if (prepare.data) prepare.reset();
            }}
          />
        </Section>
      ) : null}

      {analysis && choices && mustPrepare ? (
        <Section
          id="import-prepare"
          title="3. Prepare the schema"
          description="Creates the collections and adds the fields the import needs. It only adds: nothing existing is changed."
        >
          <ul className="import-list">
            {prepareBody(analysis, choices).map((p) => (
              <li key={p.name}>
                {p.name} → <strong>{p.collection}</strong>: {p.fields.map((f) => `${f.slug} (${f.type})`).join(', ')}
                {p.enableComments ? '; turn comments on' : ''}
              </li>
            ))}
          </ul>
          {!prepared?.success ? (
            <Button
              variant="primary"
              disabled={hasErrors}
              busy={prepare.isPending}
              busyLabel="Preparing…"
              onClick={() => prepare.mutate(analysis)}
            >
              Prepare
            </Button>
          ) : null}
          <ErrorMessage error={prepare.error} />
          {prepared ? (
            <>
              <Notice tone={prepared.success ? 'success' : 'info'}>
                <span data-testid="prepare-result">
                  {prepared.collectionsCreated.length
                    ? `Created ${prepared.collectionsCreated.join(', ')}. `
                    : 'No collection needed creating. '}
                  {prepared.fieldsCreated.length
                    ? `Added ${prepared.fieldsCreated.map((f) => `${f.collection}.${f.field}`).join(', ')}.`
                    : 'No field needed adding.'}
                  {prepared.commentsEnabled.length
                    ? ` Comments turned on for ${prepared.commentsEnabled.join(', ')}.`
                    : ''}
                </span>
              </Notice>
              {prepared.errors.length ? (
                <ul className="import-list import-list--errors" aria-label="Prepare errors">
                  {prepared.errors.map((e) => (
                    <li key={`${e.postType}-${e.collection}`}>
                      {e.postType} → {e.collection}: {e.message} ({e.code}). Choose another collection or leave the type
                      out.
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : null}
        </Section>
      ) : null}

      {analysis && choices && analysis.postTypes.length ? (
        <Section id="import-run" title={mustPrepare ? '4. Import' : '3. Import'}>
          {!result ? (
            <>
              {mustPrepare && !prepared?.success ? (
                <p className="muted">Prepare the schema first.</p>
              ) : includedCount(analysis, choices) === 0 ? (
                <p className="muted">Choose at least one content type to import.</p>
              ) : null}
              <Button
                variant="primary"
                disabled={!readyToImport || !file}
                busy={execute.isPending}
                busyLabel="Importing…"
                onClick={() => file && execute.mutate({ f: file, a: analysis })}
              >
                Import
              </Button>
            </>
          ) : null}
          {execute.isPending ? (
            <div className="index__progress">
              <progress max={progress?.total || 1} value={progress ? progress.done : 0} aria-label="Import progress" />
              <span>
                {progress
                  ? `${STAGE[progress.stage]}: ${progress.done.toLocaleString('en')} of ${progress.total.toLocaleString('en')}`
                  : 'Uploading and checking the file…'}
              </span>
            </div>
          ) : null}
          <ErrorMessage error={execute.error} />
          {result ? (
            <>
              <Notice tone={result.success ? 'success' : 'info'}>
                {result.success
                  ? 'The import finished without failures.'
                  : 'The import finished with failures: fix what the list names, then import again with "Skip entries that exist".'}
              </Notice>
              <ImportReport result={result} />
              <Button onClick={() => execute.reset()}>Import again</Button>
            </>
          ) : null}
        </Section>
      ) : null}

      {result ? (
        <Section id="import-media" title={mustPrepare ? '5. Media' : '4. Media'}>
          <MediaStep attachments={result.media.attachments} featuredImages={result.media.featuredImages} />
        </Section>
      ) : null}
    </Page>
  );
}
