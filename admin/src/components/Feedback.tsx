import { type ReactNode, useEffect, useRef } from 'react';
import { ApiError, messageOf } from '../api/errors';

/**
 * The error of a form or an action, announced to screen readers (role=alert)
 * and brought into view. `extra` lists field issues no input shows; when
 * every issue sits next to its input, the summary just points there.
 */
/**
 * `showCode` puts the service's error code beside the message, for screens an operator reads to
 * look a code up (docs/operations.md) or quote it (Site health).
 */
export function ErrorMessage({
  error,
  extra = [],
  showCode = false,
}: {
  error: unknown;
  extra?: string[];
  showCode?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [error]);
  return (
    <div ref={ref} role="alert" className={error ? 'alert alert--error' : 'alert-slot'}>
      {error ? (
        <>
          <p>
            {showCode && error instanceof ApiError ? (
              <>
                <code className="code" data-testid="error-code">
                  {error.code}
                </code>{' '}
              </>
            ) : null}
            {error instanceof ApiError && error.issues.length > 0 && extra.length === 0
              ? 'Please correct the highlighted fields.'
              : messageOf(error)}
          </p>
          {extra.length ? (
            <ul>
              {extra.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/** A polite status line (saved, sent, copied …). */
export function Notice({ children, tone = 'info' }: { children: ReactNode; tone?: 'info' | 'success' }) {
  return (
    <div role="status" className={`alert alert--${tone}`}>
      {children}
    </div>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}
