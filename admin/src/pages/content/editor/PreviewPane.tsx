import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '../../../api/client';
import { api, unwrap } from '../../../api/client';
import { Button } from '../../../components/Button';
import { ErrorMessage, Spinner } from '../../../components/Feedback';
import { formatDateTime } from '../../../lib/format';
import { ACK_TIMEOUT_MS, isAck, pageOf, REFRESH, type RefreshMessage } from './previewProtocol';

type PreviewLink = Schemas['ContentPreviewLink'];

/** Fetch a new link a minute before the token lapses, so the Preview button always opens a live one. */
const MARGIN_MS = 60_000;

export const previewLinkQuery = (collection: string, id: string) =>
  queryOptions({
    queryKey: ['content', collection, 'preview', id],
    queryFn: () => unwrap(api.GET('/content/{collection}/{id}/preview-url', { params: { path: { collection, id } } })),
    staleTime: (q) => (q.state.data ? Math.max(0, Date.parse(q.state.data.expiresAt) - Date.now() - MARGIN_MS) : 0),
    refetchInterval: (q) =>
      q.state.data ? Math.max(30_000, Date.parse(q.state.data.expiresAt) - Date.now() - MARGIN_MS) : false,
  });

/** Why there is no page to open, and where that is set. */
function MissingNote({
  missing,
  collection,
  isAdmin,
}: {
  missing: PreviewLink['missing'];
  collection: string;
  isAdmin: boolean;
}) {
  if (missing === 'urlPattern') {
    return (
      <p className="small muted">
        This collection has no URL pattern, so its entries have no page on the site.{' '}
        {isAdmin ? (
          <Link to="/schema/collections/$slug" params={{ slug: collection }}>
            Set one in the schema
          </Link>
        ) : (
          'An Admin sets it in the schema.'
        )}
      </p>
    );
  }
  if (missing === 'slug') return <p className="small muted">Give this entry a slug to preview its page on the site.</p>;
  return (
    <p className="small muted">
      No site front end is configured, so there is nothing to preview on.{' '}
      {isAdmin ? (
        <>
          Set the <Link to="/settings">site address</Link> in Settings
        </>
      ) : (
        'An Admin sets the site address in Settings'
      )}{' '}
      (the site must read drafts with the preview token; see docs/frontends.md).
    </p>
  );
}

/** The Preview card of the side column: open the page on the site, or turn the live preview on. */
export function PreviewCard({
  collection,
  link,
  live,
  onLive,
  isAdmin,
}: {
  collection: string;
  link: { data?: PreviewLink; isPending: boolean; error: unknown };
  live: boolean;
  onLive: (on: boolean) => void;
  isAdmin: boolean;
}) {
  const url = link.data?.url ?? null;
  return (
    <section className="card preview-card" aria-labelledby="preview-title">
      <h2 id="preview-title" className="card__title">
        Preview
      </h2>
      {link.isPending ? <Spinner label="Preparing the preview link…" /> : null}
      <ErrorMessage error={link.error} />
      {link.data && url ? (
        <div className="stack">
          <a className="button button--secondary" href={url} target="_blank" rel="noopener noreferrer">
            Preview <span className="visually-hidden">(opens the site in a new tab)</span>
          </a>
          <Button aria-pressed={live} onClick={() => onLive(!live)}>
            {live ? 'Hide live preview' : 'Live preview'}
          </Button>
          <p className="small muted">
            Shows the saved draft. Anyone with the link can read it until {formatDateTime(link.data.expiresAt)}.
          </p>
        </div>
      ) : null}
      {link.data && !url ? <MissingNote missing={link.data.missing} collection={collection} isAdmin={isAdmin} /> : null}
    </section>
  );
}

/**
 * The site in a frame beside the editor. After each save (`rev` changes) it
 * takes a fresh link: a new page address (the slug changed) is opened; the
 * same page is told to refresh by a message to the site's origin, and is
 * reloaded when the site does not answer.
 */
export function LivePreview({
  collection,
  id,
  locale,
  rev,
  initialUrl,
}: {
  collection: string;
  id: string;
  locale: string;
  rev: string | undefined;
  initialUrl: string;
}) {
  const queryClient = useQueryClient();
  const frame = useRef<HTMLIFrameElement>(null);
  const [src, setSrc] = useState(initialUrl);
  const [reloads, setReloads] = useState(0);
  const [status, setStatus] = useState('Showing the saved draft.');
  const shownRev = useRef(rev);
  const waiting = useRef<{ rev: string; timer: ReturnType<typeof setTimeout> } | null>(null);
  const origin = new URL(src).origin;

  // The site's answer: only from the frame, only from its origin.
  useEffect(() => {
    function onMessage(e: MessageEvent) {
      if (e.origin !== origin || e.source !== frame.current?.contentWindow || !isAck(e.data)) return;
      if (!waiting.current) return;
      clearTimeout(waiting.current.timer);
      waiting.current = null;
      setStatus(`Updated after the save at ${formatDateTime(new Date().toISOString())}.`);
    }
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [origin]);

  useEffect(() => () => clearTimeout(waiting.current?.timer), []);

  useEffect(() => {
    if (!rev || rev === shownRev.current) return;
    shownRev.current = rev;
    let cancelled = false;
    void (async () => {
      const fresh = await queryClient.fetchQuery({ ...previewLinkQuery(collection, id), staleTime: 0 });
      if (cancelled || !fresh.url) return;
      const url = fresh.url;
      if (pageOf(url) !== pageOf(src)) {
        setSrc(url);
        setStatus('The page address changed: opened the new one.');
        return;
      }
      const target = frame.current?.contentWindow;
      if (!target) return;
      if (waiting.current) clearTimeout(waiting.current.timer);
      const message: RefreshMessage = { type: REFRESH, collection, id, locale, rev, token: fresh.token, url };
      setStatus('Refreshing…');
      waiting.current = {
        rev,
        timer: setTimeout(() => {
          waiting.current = null;
          setSrc(url);
          setReloads((n) => n + 1);
          setStatus('Reloaded the page (the site did not answer the refresh message).');
        }, ACK_TIMEOUT_MS),
      };
      // The front end's origin, never '*': the token goes to that site only.
      target.postMessage(message, new URL(url).origin);
    })().catch(() => {
      if (!cancelled) setStatus('Could not refresh the preview; it shows the last saved version it had.');
    });
    return () => {
      cancelled = true;
    };
  }, [rev, collection, id, locale, queryClient, src]);

  return (
    <section className="editor__preview card" aria-label="Live preview">
      <div className="editor__preview-bar">
        <p className="small muted editor__preview-status" role="status">
          {status}
        </p>
        <a className="small" href={src} target="_blank" rel="noopener noreferrer">
          Open in a new tab
        </a>
      </div>
      <iframe
        key={reloads}
        ref={frame}
        className="editor__preview-frame"
        title="Live preview of this entry on the site"
        src={src}
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
      />
    </section>
  );
}
