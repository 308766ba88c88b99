/**
 * The route tree, written in code. Public pages (setup, login, links) sit
 * beside the signed-in layout; the layout's guard sends signed-out visitors
 * to the setup wizard (first start) or the login page. Later sections add
 * their routes under `appRoute` (and their entries in nav.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, Outlet, redirect } from '@tanstack/react-router';
import { AppLayout } from './components/AppLayout';
import { ErrorMessage } from './components/Feedback';
import { isAdmin, meQuery, safeNext, setupStatusQuery } from './lib/session';
import { AccountPage } from './pages/Account';
import { AllowedDomainsPage } from './pages/AllowedDomains';
import { DashboardPage } from './pages/Dashboard';
import { InvitePage } from './pages/Invite';
import { LoginPage } from './pages/Login';
import { MagicLinkPage } from './pages/MagicLink';
import { NotFoundPage } from './pages/NotFound';
import { ConsentPage } from './pages/oauth/Consent';
import { DevicePage } from './pages/oauth/Device';
import { SetupPage } from './pages/Setup';
import { SignupPage } from './pages/Signup';
import { UsersPage, type UsersSearch } from './pages/users/Users';

export interface RouterContext {
  queryClient: QueryClient;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const tokenSearch = (search: Record<string, unknown>): { token?: string } => ({ token: str(search.token) });

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: ({ error }) => (
    <div className="page page--narrow fatal">
      <h1 className="page__title">Something went wrong</h1>
      <ErrorMessage error={error} />
      <p>
        <a href="/_cms/admin/">Reload the admin</a>
      </p>
    </div>
  ),
});

// ----- Public pages -----

const setupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup',
  beforeLoad: async ({ context }) => {
    const status = await context.queryClient.fetchQuery({ ...setupStatusQuery, staleTime: 0 });
    if (!status.needsSetup) throw redirect({ to: '/login' });
  },
  component: SetupPage,
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { next?: string } => ({ next: safeNext(search.next) }),
  beforeLoad: async ({ context }) => {
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (me) throw redirect({ to: '/' });
    const status = await context.queryClient.ensureQueryData(setupStatusQuery);
    if (status.needsSetup) throw redirect({ to: '/setup' });
  },
  component: function Login() {
    const { next } = loginRoute.useSearch();
    return <LoginPage next={next} />;
  },
});

const magicLinkRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/magic-link',
  validateSearch: tokenSearch,
  component: function MagicLink() {
    return <MagicLinkPage token={magicLinkRoute.useSearch().token} />;
  },
});

const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite',
  validateSearch: tokenSearch,
  component: function Invite() {
    return <InvitePage token={inviteRoute.useSearch().token} />;
  },
});

const signupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signup',
  validateSearch: tokenSearch,
  component: function Signup() {
    return <SignupPage token={signupRoute.useSearch().token} />;
  },
});

// ----- Signed-in pages outside the app shell (OAuth consent, device sign-in) -----

/** Signed out: log in first, then come back to the same address (request or code included). */
const signedInBareRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in-bare',
  beforeLoad: async ({ context, location }) => {
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (!me) throw redirect({ to: '/login', search: { next: safeNext(location.href) } });
    return { me };
  },
});

const oauthConsentRoute = createRoute({
  getParentRoute: () => signedInBareRoute,
  path: '/oauth/consent',
  validateSearch: (search: Record<string, unknown>): { request?: string } => ({ request: str(search.request) }),
  component: function OAuthConsent() {
    return (
      <ConsentPage requestId={oauthConsentRoute.useSearch().request} me={oauthConsentRoute.useRouteContext().me} />
    );
  },
});

const oauthDeviceRoute = createRoute({
  getParentRoute: () => signedInBareRoute,
  path: '/oauth/device',
  validateSearch: (search: Record<string, unknown>): { user_code?: string } => ({ user_code: str(search.user_code) }),
  component: function OAuthDevice() {
    return <DevicePage userCode={oauthDeviceRoute.useSearch().user_code} me={oauthDeviceRoute.useRouteContext().me} />;
  },
});

// ----- Signed-in area -----

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (!me) {
      const status = await context.queryClient.fetchQuery({ ...setupStatusQuery, staleTime: 0 });
      if (status.needsSetup) throw redirect({ to: '/setup' });
      const next = location.href === '/' ? undefined : safeNext(location.href);
      throw redirect({ to: '/login', search: { next } });
    }
    return { me };
  },
  component: function App() {
    return <AppLayout me={appRoute.useRouteContext().me} />;
  },
});

const dashboardRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  component: function Dashboard() {
    return <DashboardPage me={dashboardRoute.useRouteContext().me} />;
  },
});

const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/account',
  component: function Account() {
    return <AccountPage me={accountRoute.useRouteContext().me} />;
  },
});

/** Admin-only pages: others are sent to the dashboard (the API refuses them anyway). */
const adminRoute = createRoute({
  getParentRoute: () => appRoute,
  id: 'admin',
  beforeLoad: ({ context }) => {
    if (!isAdmin(context.me)) throw redirect({ to: '/' });
  },
});

const usersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/users',
  validateSearch: (search: Record<string, unknown>): UsersSearch => {
    const role = Number(search.role);
    return { q: str(search.q), role: Number.isInteger(role) && role > 0 ? role : undefined };
  },
  component: function Users() {
    return <UsersPage me={usersRoute.useRouteContext().me} search={usersRoute.useSearch()} />;
  },
});

const allowedDomainsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/allowed-domains',
  component: AllowedDomainsPage,
});

const routeTree = rootRoute.addChildren([
  setupRoute,
  loginRoute,
  magicLinkRoute,
  inviteRoute,
  signupRoute,
  signedInBareRoute.addChildren([oauthConsentRoute, oauthDeviceRoute]),
  appRoute.addChildren([dashboardRoute, accountRoute, adminRoute.addChildren([usersRoute, allowedDomainsRoute])]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/_cms/admin',
    context: { queryClient },
    defaultPreload: 'intent',
    // Data freshness is TanStack Query's job.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
