import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A small local stand-in for GitHub's OAuth 2 and REST endpoints, as the
 * service uses them: `GET /login/oauth/authorize` (signs in the user the test
 * names and redirects back with a code), `POST /login/oauth/access_token`
 * (client secret, single-use code, redirect URI and PKCE S256 checked; JSON
 * answer), and under `/api`: `GET /user` and `GET /user/emails`.
 */
export interface GithubUser {
  id: number;
  login: string;
  name?: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export interface GithubStandin {
  /** CMS_OAUTH_GITHUB_URL */
  url: string;
  /** CMS_OAUTH_GITHUB_API_URL */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  users: Map<number, GithubUser>;
  /** Follow the authorization URL as `userId` (or decline) and return where GitHub sends the browser back. */
  authorize(url: string, userId: number, options?: { deny?: boolean }): Promise<URL>;
  /** What the token endpoint was sent (the last request). */
  lastTokenRequest: URLSearchParams | null;
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

const b64url = (buf: Buffer) => buf.toString('base64url');

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(value));
}

export async function startGithubStandin(options: {
  redirectUri: string;
  users?: GithubUser[];
}): Promise<GithubStandin> {
  const clientId = 'Iv1.standin-client';
  const clientSecret = 'standin-secret-0123456789abcdef';
  const users = new Map((options.users ?? []).map((u) => [u.id, u]));
  const codes = new Map<string, { userId: number; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, number>();
  const out: Partial<GithubStandin> = { lastTokenRequest: null };

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => json(res, 500, { message: String(err) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== clientId || q.get('redirect_uri') !== options.redirectUri) {
        return json(res, 400, { error: 'redirect_uri_mismatch' });
      }
      const back = new URL(options.redirectUri);
      back.searchParams.set('state', q.get('state') ?? '');
      if (q.get('deny') === '1') back.searchParams.set('error', 'access_denied');
      else {
        if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
          return json(res, 400, { error: 'invalid_request', error_description: 'PKCE S256 is required here' });
        }
        const code = b64url(randomBytes(16));
        codes.set(code, {
          userId: Number(q.get('as_user')),
          challenge: q.get('code_challenge')!,
          redirectUri: q.get('redirect_uri')!,
        });
        back.searchParams.set('code', code);
      }
      res.statusCode = 302;
      res.setHeader('location', back.toString());
      res.end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(await body(req));
      out.lastTokenRequest = form;
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      // GitHub answers its OAuth errors with 200 and an `error` member.
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
        return json(res, 200, { error: 'incorrect_client_credentials' });
      }
      if (!grant || grant.redirectUri !== form.get('redirect_uri'))
        return json(res, 200, { error: 'bad_verification_code' });
      const verifier = form.get('code_verifier') ?? '';
      if (b64url(createHash('sha256').update(verifier).digest()) !== grant.challenge) {
        return json(res, 200, { error: 'bad_verification_code', error_description: 'PKCE verification failed' });
      }
      const token = `gho_${b64url(randomBytes(20))}`;
      tokens.set(token, grant.userId);
      return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    if (req.method === 'GET' && (url.pathname === '/api/user' || url.pathname === '/api/user/emails')) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const user = users.get(tokens.get(token) ?? -1);
      if (!user) return json(res, 401, { message: 'Bad credentials' });
      if (url.pathname === '/api/user')
        return json(res, 200, { id: user.id, login: user.login, name: user.name ?? null });
      return json(
        res,
        200,
        user.emails.map((e) => ({ ...e, visibility: e.primary ? 'private' : null })),
      );
    }
    json(res, 404, { message: 'Not Found' });
  }

  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const origin = `http://127.0.0.1:${port}`;
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  async function authorize(authUrl: string, userId: number, opts: { deny?: boolean } = {}): Promise<URL> {
    const url = new URL(authUrl);
    url.searchParams.set('as_user', String(userId));
    if (opts.deny) url.searchParams.set('deny', '1');
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) throw new Error(`GitHub stand-in answered ${res.status}: ${await res.text()}`);
    return new URL(location);
  }

  return Object.assign(out, {
    url: origin,
    apiUrl: `${origin}/api`,
    clientId,
    clientSecret,
    users,
    authorize,
  }) as GithubStandin;
}
