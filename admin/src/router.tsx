/**
 * The route tree, written in code. Public pages (setup, login, links) sit
 * beside the signed-in layout; the layout's guard sends signed-out visitors
 * to the setup wizard (first start) or the login page. Later sections add
 * their routes under `appRoute` (and their entries in nav.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, Outlet, redirect } from '@tanstack/react-router';
import { lazy, type ReactNode, Suspense } from 'react';
import { AppLayout } from './components/AppLayout';
import { ErrorMessage, Spinner } from './components/Feedback';
import { isAdmin, meQuery, methodsQuery, safeNext, setupStatusQuery } from './lib/session';
import { AccountPage } from './pages/Account';
import { AllowedDomainsPage } from './pages/AllowedDomains';
import { CommentsPage, type CommentsSearch } from './pages/comments/Comments';

import type { EditorSearch } from './pages/content/EntryEditor';
import { parseListSearch } from './pages/content/listSearch';
import { DashboardPage } from './pages/Dashboard';
import { InvitePage } from './pages/Invite';
import { LoginPage } from './pages/Login';
import { MagicLinkPage } from './pages/MagicLink';
import { MediaLibraryPage, type MediaSearch } from './pages/media/MediaLibrary';
import { NotFoundPage } from './pages/NotFound';
import { ConsentPage } from './pages/oauth/Consent';
import { DevicePage } from './pages/oauth/Device';
import { NotFoundPage as NotFoundLogPage } from './pages/redirects/NotFound';
import { RedirectsPage, type RedirectsSearch } from './pages/redirects/Redirects';
import { SetupPage } from './pages/Setup';
import { SignupPage } from './pages/Signup';
import { SearchPage, type SearchPageSearch } from './pages/search/SearchPage';
import { parseTransferSearch } from './pages/transfer/tabs';
import { UsersPage, type UsersSearch } from './pages/users/Users';

// Site structure and settings load on first visit: they bring the drag-and-drop library along.
const ImportBlogPage = lazy(() => import('./pages/import/ImportBlog').then((m) => ({ default: m.ImportBlogPage })));
const MenuBuilderPage = lazy(() => import('./pages/menus/MenuBuilder').then((m) => ({ default: m.MenuBuilderPage })));
const MenusPage = lazy(() => import('./pages/menus/Menus').then((m) => ({ default: m.MenusPage })));
const SectionPage = lazy(() => import('./pages/sections/Section').then((m) => ({ default: m.SectionPage })));
const SectionsPage = lazy(() => import('./pages/sections/Sections').then((m) => ({ default: m.SectionsPage })));
const SettingsPage = lazy(() => import('./pages/Settings').then((m) => ({ default: m.SettingsPage })));
const TaxonomiesPage = lazy(() => import('./pages/taxonomies/Taxonomies').then((m) => ({ default: m.TaxonomiesPage })));
const TaxonomyPage = lazy(() => import('./pages/taxonomies/Taxonomy').then((m) => ({ default: m.TaxonomyPage })));
const WidgetAreaPage = lazy(() => import('./pages/widgets/WidgetArea').then((m) => ({ default: m.WidgetAreaPage })));
const WidgetAreasPage = lazy(() => import('./pages/widgets/WidgetAreas').then((m) => ({ default: m.WidgetAreasPage })));

export interface RouterContext {
  queryClient: QueryClient;
}

/**
 * The content and schema screens load on their first visit (code-split by
 * route). React.lazy rather than the router's lazyRouteComponent, whose
 * React 19 `use()` path warns once the module has loaded.
 */
const suspended = (page: ReactNode) => <Suspense fallback={<Spinner label="Loading…" />}>{page}</Suspense>;
const EntryEditorPage = lazy(() => import('./pages/content/EntryEditor').then((m) => ({ default: m.EntryEditorPage })));
const EntryListPage = lazy(() => import('./pages/content/EntryList').then((m) => ({ default: m.EntryListPage })));
const SchemaPage = lazy(() => import('./pages/schema/Schema').then((m) => ({ default: m.SchemaPage })));
const CollectionSchemaPage = lazy(() =>
  import('./pages/schema/CollectionSchema').then((m) => ({ default: m.CollectionSchemaPage })),
);
const BlockTypesPage = lazy(() => import('./pages/schema/BlockTypes').then((m) => ({ default: m.BlockTypesPage })));
const MediaUsagePage = lazy(() =>
  import('./pages/media-usage/MediaUsage').then((m) => ({ default: m.MediaUsagePage })),
);
const SiteCheckPage = lazy(() => import('./pages/site-check/SiteCheck').then((m) => ({ default: m.SiteCheckPage })));
const TransferPage = lazy(() => import('./pages/transfer/Transfer').then((m) => ({ default: m.TransferPage })));
const OrphansPage = lazy(() => import('./pages/schema/Orphans').then((m) => ({ default: m.OrphansPage })));

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

/** `?error=<CODE>`: a refused provider sign-in (the codes are the service's, the words the admin's). */
const errorCode = (v: unknown) => (typeof v === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(v) ? v : undefined);

const setupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup',
  validateSearch: (search: Record<string, unknown>): { error?: string } => ({ error: errorCode(search.error) }),
  beforeLoad: async ({ context, search }) => {
    const status = await context.queryClient.fetchQuery({ ...setupStatusQuery, staleTime: 0 });
    if (!status.needsSetup) throw redirect({ to: '/login', search: { error: search.error } });
  },
  component: function Setup() {
    return <SetupPage error={setupRoute.useSearch().error} />;
  },
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { next?: string; error?: string } => ({
    next: safeNext(search.next),
    error: errorCode(search.error),
  }),
  beforeLoad: async ({ context, search }) => {
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (me) throw redirect({ to: '/' });
    const status = await context.queryClient.ensureQueryData(setupStatusQuery);
    // A provider refused during setup comes back here: the wizard says why.
    if (status.needsSetup) throw redirect({ to: '/setup', search: { error: search.error } });
    // Known before the page renders, so a site behind a gateway never shows the passkey form.
    await context.queryClient.ensureQueryData(methodsQuery).catch(() => undefined);
  },
  component: function Login() {
    const { next, error } = loginRoute.useSearch();
    return <LoginPage next={next} error={error} />;
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
  // Back from linking a provider: `?linked=<id>`, or `?error=<CODE>` when it was refused.
  validateSearch: (search: Record<string, unknown>): { linked?: string; error?: string } => ({
    linked:
      typeof search.linked === 'string' && /^[a-z][a-z0-9-]{0,31}$/.test(search.linked) ? search.linked : undefined,
    error: errorCode(search.error),
  }),
  component: function Account() {
    return <AccountPage me={accountRoute.useRouteContext().me} search={accountRoute.useSearch()} />;
  },
});

// ----- Content (Contributor and up; the pages show what a role may do) -----

const entryListRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/content/$collection',
  validateSearch: parseListSearch,
  component: function EntryList() {
    const { collection } = entryListRoute.useParams();
    return suspended(
      <EntryListPage
        me={entryListRoute.useRouteContext().me}
        collection={collection}
        search={entryListRoute.useSearch()}
      />,
    );
  },
});

const entryEditorRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/content/$collection/$id',
  validateSearch: (search: Record<string, unknown>): EditorSearch => ({ locale: str(search.locale) }),
  component: function EntryEditor() {
    const { collection, id } = entryEditorRoute.useParams();
    return suspended(
      <EntryEditorPage
        key={`${collection}/${id}`}
        me={entryEditorRoute.useRouteContext().me}
        collection={collection}
        id={id}
        search={entryEditorRoute.useSearch()}
      />,
    );
  },
});

const mediaRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/media',
  validateSearch: (search: Record<string, unknown>): MediaSearch => ({
    folder: str(search.folder),
    type: str(search.type),
    q: str(search.q),
    view: search.view === 'list' ? 'list' : undefined,
  }),
  component: function Media() {
    return <MediaLibraryPage me={mediaRoute.useRouteContext().me} search={mediaRoute.useSearch()} />;
  },
});

const searchRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/search',
  validateSearch: (search: Record<string, unknown>): SearchPageSearch => ({
    q: str(search.q),
    collection: str(search.collection),
  }),
  component: function Search() {
    return <SearchPage me={searchRoute.useRouteContext().me} search={searchRoute.useSearch()} />;
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

const importBlogRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/import/blogplatform',
  component: () => suspended(<ImportBlogPage />),
});

/** Editor pages (moderation, redirects, site structure, settings): others are sent to the dashboard (the API refuses them anyway). */
const EDITOR = 40;
const editorRoute = createRoute({
  getParentRoute: () => appRoute,
  id: 'editor',
  beforeLoad: ({ context }) => {
    if ((context.me.user.role ?? 0) < EDITOR) throw redirect({ to: '/' });
  },
  // Pages of this area load on first visit (the drag-and-drop library comes with them).
  component: function EditorArea() {
    return (
      <Suspense fallback={<Spinner />}>
        <Outlet />
      </Suspense>
    );
  },
});

const COMMENT_STATUSES = ['pending', 'approved', 'spam', 'trash', 'all'] as const;
const commentsRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/comments',
  validateSearch: (search: Record<string, unknown>): CommentsSearch => ({
    status: COMMENT_STATUSES.find((s) => s === search.status),
  }),
  component: function Comments() {
    return <CommentsPage search={commentsRoute.useSearch()} />;
  },
});

const REDIRECT_SORTS = ['created', 'source', 'hits'] as const;
const redirectsRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/redirects',
  validateSearch: (search: Record<string, unknown>): RedirectsSearch => ({
    source: str(search.source),
    prefix: str(search.prefix),
    sort: REDIRECT_SORTS.find((s) => s === search.sort),
  }),
  component: function Redirects() {
    return <RedirectsPage search={redirectsRoute.useSearch()} />;
  },
});

const notFoundLogRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/not-found',
  component: NotFoundLogPage,
});

const schemaRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/schema',
  component: () => suspended(<SchemaPage />),
});

const collectionSchemaRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/schema/collections/$slug',
  component: function CollectionSchema() {
    return suspended(<CollectionSchemaPage slug={collectionSchemaRoute.useParams().slug} />);
  },
});

const blockTypesRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/schema/block-types',
  component: () => suspended(<BlockTypesPage />),
});
const orphansRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/schema/orphans',
  component: () => suspended(<OrphansPage />),
});

/** Media usage tracking: the API needs `schema:manage`, which only Admins hold. */
const mediaUsageRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/media-usage',
  component: () => suspended(<MediaUsagePage />),
});

/** The consistency checker and its repair (Admins; `site:check`). */
const siteHealthRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/site-health',
  component: () => suspended(<SiteCheckPage />),
});

/** Site transfer: exports and the approvals MCP clients ask for (Admins; `transfer:export`). */
const transferRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/transfer',
  validateSearch: parseTransferSearch,
  component: function Transfer() {
    return suspended(<TransferPage me={transferRoute.useRouteContext().me} search={transferRoute.useSearch()} />);
  },
});

const taxonomiesRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/taxonomies',
  component: TaxonomiesPage,
});

const taxonomyRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/taxonomies/$name',
  component: function Taxonomy() {
    const { name } = taxonomyRoute.useParams();
    return <TaxonomyPage key={name} name={name} />;
  },
});

const menusRoute = createRoute({ getParentRoute: () => editorRoute, path: '/menus', component: MenusPage });

const menuRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/menus/$name',
  validateSearch: (search: Record<string, unknown>): { locale?: string } => ({ locale: str(search.locale) }),
  component: function Menu() {
    const { name } = menuRoute.useParams();
    const { locale } = menuRoute.useSearch();
    return <MenuBuilderPage key={`${name}:${locale ?? ''}`} name={name} locale={locale} />;
  },
});

const sectionsRoute = createRoute({ getParentRoute: () => editorRoute, path: '/sections', component: SectionsPage });

const sectionRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/sections/$slug',
  component: function SectionRoute() {
    const { slug } = sectionRoute.useParams();
    return <SectionPage key={slug} slug={slug} />;
  },
});

const widgetsRoute = createRoute({ getParentRoute: () => editorRoute, path: '/widgets', component: WidgetAreasPage });

const widgetAreaRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/widgets/$name',
  component: function WidgetAreaRoute() {
    const { name } = widgetAreaRoute.useParams();
    return <WidgetAreaPage key={name} name={name} />;
  },
});

const settingsRoute = createRoute({
  getParentRoute: () => editorRoute,
  path: '/settings',
  component: function Settings() {
    return <SettingsPage me={settingsRoute.useRouteContext().me} />;
  },
});

const routeTree = rootRoute.addChildren([
  setupRoute,
  loginRoute,
  magicLinkRoute,
  inviteRoute,
  signupRoute,
  signedInBareRoute.addChildren([oauthConsentRoute, oauthDeviceRoute]),
  appRoute.addChildren([
    dashboardRoute,
    accountRoute,
    entryListRoute,
    entryEditorRoute,
    mediaRoute,
    searchRoute,
    editorRoute.addChildren([
      commentsRoute,
      redirectsRoute,
      notFoundLogRoute,
      taxonomiesRoute,
      taxonomyRoute,
      menusRoute,
      menuRoute,
      sectionsRoute,
      sectionRoute,
      widgetsRoute,
      widgetAreaRoute,
      settingsRoute,
    ]),
    adminRoute.addChildren([
      usersRoute,
      allowedDomainsRoute,
      importBlogRoute,
      schemaRoute,
      collectionSchemaRoute,
      blockTypesRoute,
      orphansRoute,
      mediaUsageRoute,
      siteHealthRoute,
      transferRoute,
    ]),
  ]),
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
