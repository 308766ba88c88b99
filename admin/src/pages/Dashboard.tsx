import { Link } from '@tanstack/react-router';
import type { Me } from '../api/auth';
import { Page } from '../components/Page';
import { hasAddress } from '../lib/address';
import { CONTRIBUTOR } from '../lib/permissions';
import { isAdmin } from '../lib/session';
import { DashboardContent } from './DashboardContent';

/** The landing page after sign-in. Later sections add their summaries here. */
export function DashboardPage({ me }: { me: Me }) {
  const first = me.user.name?.split(' ')[0];
  return (
    <Page title="Dashboard" description={first ? `Welcome, ${first}.` : 'Welcome.'}>
      {me.user.role >= CONTRIBUTOR ? <DashboardContent me={me} /> : null}
      <div className="tiles">
        <section className="card tile" aria-labelledby="tile-site">
          <h2 id="tile-site" className="card__title">
            {me.site?.title || 'Your site'}
          </h2>
          <p className="card__lead">{me.site?.tagline || 'No tagline yet.'}</p>
          <p className="small muted">
            You are signed in as{' '}
            <strong>
              {hasAddress(me.user.email) ? me.user.email : me.user.name || 'an account without an address'}
            </strong>{' '}
            ({me.user.roleName}).
          </p>
        </section>
        <section className="card tile" aria-labelledby="tile-account">
          <h2 id="tile-account" className="card__title">
            Your account
          </h2>
          <p className="card__lead">
            Add a passkey for another device, or create an access token for scripts and tools.
          </p>
          <Link to="/account" className="button button--secondary button--small">
            Open your account
          </Link>
        </section>
        {isAdmin(me) ? (
          <section className="card tile" aria-labelledby="tile-people">
            <h2 id="tile-people" className="card__title">
              People
            </h2>
            <p className="card__lead">Invite editors and authors, change roles, or let a whole email domain sign up.</p>
            <div className="actions">
              <Link to="/users" className="button button--secondary button--small">
                Users
              </Link>
              <Link to="/allowed-domains" className="button button--secondary button--small">
                Allowed domains
              </Link>
            </div>
          </section>
        ) : null}
      </div>
    </Page>
  );
}
