import { Link } from '@tanstack/react-router';
import { Page } from '../components/Page';

export function NotFoundPage() {
  return (
    <Page title="Page not found" description="There is no admin page at this address.">
      <p>
        <Link to="/">Back to the dashboard</Link>
      </p>
    </Page>
  );
}
