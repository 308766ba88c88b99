import { queryOptions } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { authApi, type LoginProvider, type ProviderStart } from '../api/auth';
import { ApiError } from '../api/errors';
import { providerError, providerRefusal } from '../lib/providerErrors';
import { Button } from './Button';
import { ErrorMessage } from './Feedback';
import { TextField } from './Field';

/** The configured login providers, in the order the service renders them (Admins also get callback URLs). */
export const providersQuery = queryOptions({
  queryKey: ['auth-providers'],
  queryFn: async () => (await authApi.providers()).items,
  staleTime: 5 * 60_000,
});

/** Buttons first, then form providers, each group in the order given (the service already answers so). */
export function renderingOrder(providers: readonly LoginProvider[]): LoginProvider[] {
  return [...providers.filter((p) => p.kind === 'button'), ...providers.filter((p) => p.kind === 'form')];
}

/**
 * Start a provider sign-in and send the browser to the provider. A form provider gets what was
 * typed, and in setup the wizard's address (it gives none of its own; a button provider's
 * confirmed address is the account's).
 */
async function go(provider: LoginProvider, start: ProviderStart, input?: string, setupEmail?: string): Promise<void> {
  let body: ProviderStart = start;
  if (provider.kind === 'form') {
    body = { ...body, input };
    if (body.intent === 'setup' && setupEmail) body = { ...body, email: setupEmail };
  }
  const { url } = await authApi.startProvider(provider.id, body);
  window.location.assign(url);
}

/**
 * The login providers as one group: a compact button for each button provider, then a small
 * form (the handle) for each form provider. Each sends the browser to its provider with the
 * page's intent (`start`); the provider sends it back to the service, which signs in, links or
 * refuses with a code. `verb` makes the visible action ("Sign in with GitHub").
 */
export function ProviderChoices({
  providers,
  start,
  verb,
  onLeave,
  onStart,
  disabled = false,
  label = 'Sign-in providers',
  setupEmail,
  inline = false,
}: {
  providers: readonly LoginProvider[];
  /** The start body of this page (intent and its fields), without the form's input. */
  start: ProviderStart;
  verb: (provider: LoginProvider) => string;
  /** Just before the browser leaves for the provider (the setup wizard keeps its fields). */
  onLeave?: () => void;
  /** When a provider is chosen (a page clears its other messages). */
  onStart?: () => void;
  disabled?: boolean;
  /** The accessible name of the list of buttons. */
  label?: string;
  /** Setup: the wizard's address, for a form provider. */
  setupEmail?: string;
  /** Buttons side by side at their own width (inside a page section) instead of one per line. */
  inline?: boolean;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ provider: string; error: unknown } | null>(null);

  // Back from the provider through the browser's history: the page is shown again as it was left.
  useEffect(() => {
    const shown = (e: PageTransitionEvent) => {
      if (e.persisted) setBusy(null);
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  async function choose(provider: LoginProvider, input?: string) {
    onStart?.();
    setFailure(null);
    setBusy(provider.id);
    try {
      onLeave?.();
      await go(provider, start, input, setupEmail);
    } catch (error) {
      setFailure({ provider: provider.id, error });
      setBusy(null);
    }
  }

  const ordered = renderingOrder(providers);
  const buttons = ordered.filter((p) => p.kind === 'button');
  const forms = ordered.filter((p) => p.kind === 'form');
  // A refused handle is shown at its field; everything else under the group.
  const atField = (id: string) =>
    failure?.provider === id && forms.some((p) => p.id === id) && isInputError(failure.error) ? failure.error : null;
  const general = failure && !atField(failure.provider) ? failure.error : null;

  return (
    <div className="providers">
      {buttons.length ? (
        <ul
          className={inline ? 'providers__buttons providers__buttons--inline' : 'providers__buttons'}
          aria-label={label}
        >
          {buttons.map((p) => (
            <li key={p.id}>
              <Button
                className={inline ? 'provider-button' : 'button--block provider-button'}
                onClick={() => choose(p)}
                busy={busy === p.id}
                busyLabel={`Opening ${p.label}…`}
                disabled={disabled || (busy !== null && busy !== p.id)}
                data-provider={p.id}
              >
                {verb(p)}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {forms.map((p) => (
        <ProviderForm
          key={p.id}
          provider={p}
          verb={verb}
          busy={busy === p.id}
          disabled={disabled || (busy !== null && busy !== p.id)}
          error={atField(p.id)}
          onSubmit={(input) => choose(p, input)}
        />
      ))}
      <ErrorMessage error={general ? new Error(providerError(general, start.intent)) : null} />
    </div>
  );
}

const isInputError = (err: unknown) =>
  err instanceof ApiError && (err.code === 'VALIDATION_ERROR' || err.code === 'PROVIDER_HANDLE_INVALID');

/** A form provider: its handle, then the action. */
function ProviderForm({
  provider,
  verb,
  busy,
  disabled,
  error,
  onSubmit,
}: {
  provider: LoginProvider;
  verb: (provider: LoginProvider) => string;
  busy: boolean;
  disabled: boolean;
  error: unknown;
  onSubmit: (input: string) => void;
}) {
  const [handle, setHandle] = useState('');
  const [local, setLocal] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const titleId = useId();

  const fieldError =
    local ??
    (error instanceof ApiError
      ? error.code === 'PROVIDER_HANDLE_INVALID'
        ? providerError(error)
        : (error.issues[0]?.message ?? error.message)
      : undefined);

  // A refused handle takes the focus back to its field.
  useEffect(() => {
    if (error) form.current?.querySelector('input')?.focus();
  }, [error]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const value = handle.trim();
    if (!value) {
      setLocal('Enter your handle, such as alice.bsky.social.');
      form.current?.querySelector('input')?.focus();
      return;
    }
    setLocal(undefined);
    onSubmit(value);
  }

  return (
    <form
      ref={form}
      className="provider-form"
      onSubmit={submit}
      noValidate
      aria-labelledby={titleId}
      data-provider={provider.id}
    >
      <p className="provider-form__title" id={titleId}>
        {verb(provider)}
      </p>
      <div className="inline-form">
        <TextField
          label="Handle"
          name={`${provider.id}-handle`}
          placeholder="alice.bsky.social"
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          required
          value={handle}
          onValue={(v) => {
            setHandle(v);
            if (local) setLocal(undefined);
          }}
          error={fieldError}
          maxLength={300}
        />
        <Button type="submit" busy={busy} busyLabel={`Opening ${provider.label}…`} disabled={disabled}>
          Continue<span className="visually-hidden"> with {provider.label}</span>
        </Button>
      </div>
    </form>
  );
}

/**
 * A refusal the service redirected here with (`?error=<CODE>`), in this admin's words: announced
 * (role alert) and focused, so keyboard and screen-reader users start from it.
 */
export function ProviderRefusal({ code }: { code: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} role="alert" tabIndex={-1} className="alert alert--error provider-refusal" data-code={code}>
      <p>{providerRefusal(code)}</p>
    </div>
  );
}
