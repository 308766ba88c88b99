import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Section } from '../../components/Page';
import { issueFor } from '../../lib/forms';

/** "Test a path": where a visitor of this address would end up, hop by hop (no hit is counted). */
export function TestPath() {
  const [path, setPath] = useState('');
  const test = useMutation({
    mutationFn: (p: string) => unwrap(api.GET('/redirects/test', { params: { query: { path: p } } })),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (path.trim()) test.mutate(path.trim());
  }
  const r = test.data;
  return (
    <Section
      id="test-path"
      title="Test a path"
      description="See which rule answers an address, without counting a hit."
    >
      <form className="inline-form" onSubmit={submit} noValidate>
        <TextField
          label="Path"
          name="path"
          placeholder="/old-page?ref=mail"
          autoComplete="off"
          spellCheck={false}
          value={path}
          onValue={setPath}
          error={issueFor(test.error, 'path')}
        />
        <Button type="submit" busy={test.isPending}>
          Test
        </Button>
      </form>
      {test.isError && !issueFor(test.error, 'path') ? <ErrorMessage error={test.error} /> : null}
      {r ? (
        <output className="test-result" aria-live="polite">
          {r.match ? (
            <>
              <p>
                <code>{r.path}</code> → <code>{r.match.location}</code>{' '}
                <span className="badge">{r.match.statusCode}</span> by rule <code>{r.match.redirect.source}</code>
              </p>
              {r.hops.length > 1 ? (
                <p className={r.loop ? 'field__error' : 'muted'}>
                  {r.loop ? 'Loop: ' : `${r.hops.length} hops: `}
                  <code>{r.hops.join(' → ')}</code>
                </p>
              ) : null}
            </>
          ) : (
            <p>
              No rule matches <code>{r.path}</code>: visitors get a 404 (and it is recorded in the 404 log).
            </p>
          )}
        </output>
      ) : null}
    </Section>
  );
}
