import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { setupStatusQuery } from '../lib/session';

/** The calm, centred frame of the signed-out pages (setup, login, links). */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const status = useQuery(setupStatusQuery);
  const siteTitle = status.data?.site?.title;
  return (
    <div className="auth">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="auth__brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="auth__site">{siteTitle || 'CMS'}</span>
      </header>
      <main id="main" tabIndex={-1} className={wide ? 'auth__card auth__card--wide' : 'auth__card'}>
        {children}
      </main>
      <footer className="auth__foot">Content management · admin</footer>
    </div>
  );
}
