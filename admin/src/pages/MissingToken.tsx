import { Link } from '@tanstack/react-router';

export function MissingToken({ what }: { what: string }) {
  return (
    <div className="stack">
      <h1 className="page__title">Link incomplete</h1>
      <p role="alert" className="alert alert--error">
        This address has no {what} token. Open the link from your email again, and copy it whole if you paste it.
      </p>
      <p>
        <Link to="/login">Go to the sign-in page</Link>
      </p>
    </div>
  );
}
