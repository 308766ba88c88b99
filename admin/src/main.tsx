import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/errors';
import { makeRouter } from './router';
import './styles.css';

/** A 401 in the middle of work means the session ended (expired, signed out elsewhere, disabled). */
function onAuthLost(err: unknown) {
  if (!(err instanceof ApiError) || err.status !== 401) return;
  const path = router.state.location.pathname;
  if (['/login', '/setup', '/magic-link', '/invite', '/signup'].some((p) => path.endsWith(p))) return;
  queryClient.clear();
  router.navigate({ to: '/login', search: { next: router.state.location.href } });
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onAuthLost }),
  mutationCache: new MutationCache({ onError: onAuthLost }),
  defaultOptions: {
    queries: {
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const router = makeRouter(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
