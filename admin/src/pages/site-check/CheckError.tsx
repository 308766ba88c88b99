import { useEffect, useRef } from 'react';
import { ApiError, messageOf } from '../../api/errors';

/**
 * A failed check or repair with the service's error code beside its message: an operator
 * looks the code up (docs/operations.md) or quotes it, so it is shown, not only the words.
 */
export function CheckError({ error }: { error: unknown }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [error]);
  return (
    <div ref={ref} role="alert" className={error ? 'alert alert--error' : 'alert-slot'}>
      {error ? (
        <p>
          {error instanceof ApiError ? (
            <>
              <code className="code" data-testid="check-error-code">
                {error.code}
              </code>{' '}
            </>
          ) : null}
          {messageOf(error)}
        </p>
      ) : null}
    </div>
  );
}
