import { type ReactNode, useEffect, useRef } from 'react';

let firstPage = true;

/**
 * A page: sets the document title and, after an in-app navigation, moves focus
 * to the heading so keyboard and screen-reader users start at the new content.
 */
export function Page({
  title,
  description,
  actions,
  children,
  narrow = false,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  narrow?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · CMS admin`;
    if (firstPage) firstPage = false;
    else heading.current?.focus({ preventScroll: false });
  }, [title]);
  return (
    <div className={narrow ? 'page page--narrow' : 'page'}>
      <div className="page__head">
        <div>
          <h1 ref={heading} tabIndex={-1} className="page__title">
            {title}
          </h1>
          {description ? <p className="page__lead">{description}</p> : null}
        </div>
        {actions ? <div className="page__actions">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}

/** A titled block of a page. */
export function Section({
  title,
  description,
  children,
  id,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className="card" aria-labelledby={headingId} id={id}>
      <h2 className="card__title" id={headingId}>
        {title}
      </h2>
      {description ? <p className="card__lead">{description}</p> : null}
      {children}
    </section>
  );
}
