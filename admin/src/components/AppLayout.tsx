import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { authApi, type Me } from '../api/auth';
import { messageOf } from '../api/errors';
import { shownAddress } from '../lib/address';
import { isAdmin, meQuery, methodsQuery } from '../lib/session';
import { CONTENT_AFTER_GROUP, NAV_GROUPS } from '../nav';
import { CollectionsNav } from './CollectionsNav';
import { CommandPalette } from './CommandPalette';

/** Signed-in frame: top bar (site, user menu), navigation, main content. */
export function AppLayout({ me: signedIn }: { me: Me }) {
  // The session as loaded on entry, kept fresh (a renamed site shows in the top bar at once).
  const me = useQuery(meQuery).data ?? signedIn;
  const [navOpen, setNavOpen] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const navId = useId();

  // A navigation closes the small-screen menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every path change on purpose
  useEffect(() => setNavOpen(false), [pathname]);

  const admin = isAdmin(me);
  const role = me.user.role;
  const groups = NAV_GROUPS.map((g) => ({
    ...g,
    items: g.items.filter((i) => (!i.adminOnly || admin) && (i.minRole === undefined || role >= i.minRole)),
  })).filter((g) => g.items.length > 0);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="topbar__menu button button--ghost"
          aria-expanded={navOpen}
          aria-controls={navId}
          onClick={() => setNavOpen((v) => !v)}
        >
          <span className="burger" aria-hidden="true" />
          <span>Menu</span>
        </button>
        <Link to="/" className="topbar__site">
          <span className="brand-mark" aria-hidden="true" />
          <span className="topbar__title">{me.site?.title || 'CMS'}</span>
        </Link>
        <CommandPalette me={me} />
        <UserMenu me={me} />
      </header>
      <div className="frame">
        <nav id={navId} className={navOpen ? 'sidebar sidebar--open' : 'sidebar'} aria-label="Main">
          {groups.map((group) => (
            <div className="sidebar__group" key={group.label} data-group={group.label}>
              <h2 className="sidebar__heading">{group.label}</h2>
              <ul>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      className="sidebar__link"
                      activeProps={{ className: 'sidebar__link sidebar__link--active', 'aria-current': 'page' }}
                      activeOptions={{ exact: item.to === '/' }}
                    >
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
              {group.label === CONTENT_AFTER_GROUP ? <CollectionsNav me={me} /> : null}
            </div>
          ))}
        </nav>
        <main id="main" tabIndex={-1} className="main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

function UserMenu({ me }: { me: Me }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [signingOut, setSigningOut] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const gateway = useQuery(methodsQuery).data?.mode === 'edge-access';

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  async function signOut() {
    setSigningOut(true);
    setError(null);
    try {
      await authApi.logout();
      const methods = await queryClient.fetchQuery(methodsQuery).catch(() => null);
      queryClient.clear();
      // Behind an edge access gateway the next request would sign in again: end the gateway's sign-in too.
      if (methods?.gateway) {
        window.location.assign(methods.gateway.signOutUrl);
        return;
      }
      await navigate({ to: '/login' });
    } catch (err) {
      setError(messageOf(err));
      setSigningOut(false);
    }
  }

  const display = me.user.name || shownAddress(me.user.email);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape closes the disclosure menu
    <div
      className="usermenu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          setOpen(false);
          trigger.current?.focus();
        }
      }}
    >
      <button
        ref={trigger}
        type="button"
        className="usermenu__trigger"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`Account menu (${display})`}
        onClick={() => setOpen((v) => !v)}
      >
        <span className="avatar" aria-hidden="true">
          {display.slice(0, 1).toUpperCase()}
        </span>
        <span className="usermenu__name">{display}</span>
      </button>
      <div id={menuId} className="usermenu__panel" hidden={!open}>
        <p className="usermenu__who">
          <strong>{me.user.name || 'Signed in'}</strong>
          <span>{shownAddress(me.user.email)}</span>
          <span className="badge">{me.user.roleName}</span>
        </p>
        {gateway ? (
          <p className="usermenu__note muted small">Signed in through your organisation's access gateway</p>
        ) : null}
        <ul>
          <li>
            <Link to="/account" className="usermenu__item" onClick={() => setOpen(false)}>
              Your account
            </Link>
          </li>
          <li>
            <button type="button" className="usermenu__item" onClick={signOut} disabled={signingOut}>
              {signingOut ? 'Signing out…' : 'Sign out'}
            </button>
          </li>
        </ul>
        {error ? (
          <p role="alert" className="field__error">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
