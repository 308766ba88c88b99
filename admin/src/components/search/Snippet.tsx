import { snippetParts } from './useSearch';

/** A search snippet with its matches highlighted. */
export function Snippet({ html }: { html: string }) {
  return (
    <>
      {snippetParts(html).map((p, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: parts are fixed for a given snippet
        p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </>
  );
}
