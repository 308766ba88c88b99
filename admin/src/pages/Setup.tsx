import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { authApi } from '../api/auth';
import { ApiError } from '../api/errors';
import { AuthLayout } from '../components/AuthLayout';
import { Button } from '../components/Button';
import { ErrorMessage } from '../components/Feedback';
import { TextField } from '../components/Field';
import { ProviderChoices, ProviderRefusal, providersQuery } from '../components/ProviderChoices';
import { issueFor, optional, otherIssues } from '../lib/forms';
import { resetSession } from '../lib/session';
import { createPasskey } from '../lib/webauthn';

const STEP_FIELDS: Record<number, string[]> = { 1: ['siteTitle', 'tagline'], 2: ['email', 'name'] };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Step = 1 | 2 | 3;

interface Wizard {
  siteTitle: string;
  tagline: string;
  email: string;
  name: string;
}

/**
 * The wizard's fields while the browser is away at a login provider (this tab only), so that a
 * refused sign-in comes back to the last step as it was left. Read once, then dropped.
 */
const KEPT = 'cms-setup-wizard';

function keep(fields: Wizard): void {
  try {
    sessionStorage.setItem(KEPT, JSON.stringify(fields));
  } catch {
    // Storage refused (private mode): the wizard starts empty again, nothing else is lost.
  }
}

function takeKept(): Wizard | null {
  try {
    const raw = sessionStorage.getItem(KEPT);
    sessionStorage.removeItem(KEPT);
    const value = raw ? (JSON.parse(raw) as Partial<Wizard>) : null;
    if (!value || typeof value.siteTitle !== 'string' || typeof value.email !== 'string') return null;
    return {
      siteTitle: value.siteTitle,
      tagline: typeof value.tagline === 'string' ? value.tagline : '',
      email: value.email,
      name: typeof value.name === 'string' ? value.name : '',
    };
  } catch {
    return null;
  }
}

/**
 * First start: site title and tagline, the first account, then its passkey or one of the
 * configured login providers (each can make the first Admin). `error` is the code a refused
 * provider sign-in came back with.
 */
export function SetupPage({ error: refusal }: { error?: string }) {
  // Back from a refused provider sign-in: the fields as they were left, at the last step.
  const [kept] = useState(() => (refusal ? takeKept() : null));
  const [step, setStep] = useState<Step>(kept?.siteTitle.trim() && EMAIL.test(kept.email.trim()) ? 3 : 1);
  const [siteTitle, setSiteTitle] = useState(kept?.siteTitle ?? '');
  const [tagline, setTagline] = useState(kept?.tagline ?? '');
  const [email, setEmail] = useState(kept?.email ?? '');
  const [name, setName] = useState(kept?.name ?? '');
  const [showRefusal, setShowRefusal] = useState(Boolean(refusal));
  const [local, setLocal] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const providers = useQuery(providersQuery).data ?? [];
  const STEPS = ['Your site', 'Your account', providers.length ? 'How you sign in' : 'Your passkey'];

  useEffect(() => {
    document.title = 'Set up your site · CMS admin';
  }, []);
  // Focus moves to the step's heading when the step changes (not on the first one shown, which may be
  // the last step with a refusal to read first).
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    stepHeading.current?.focus();
  }, [step]);

  const fieldError = (field: string) => local[field] ?? issueFor(error, field);

  function next(e: FormEvent) {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (step === 1 && !siteTitle.trim()) problems.siteTitle = 'Enter a title for your site.';
    if (step === 2 && !EMAIL.test(email.trim())) problems.email = 'Enter an email address such as you@example.com.';
    setLocal(problems);
    if (Object.keys(problems).length) {
      const first = Object.keys(problems)[0];
      document.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setError(null);
    setStep((s) => (s < 3 ? ((s + 1) as Step) : s));
  }

  async function createAccount() {
    setShowRefusal(false);
    setBusy(true);
    setError(null);
    try {
      const { setupToken, options } = await authApi.setupOptions({
        siteTitle: siteTitle.trim(),
        tagline: optional(tagline),
        email: email.trim(),
        name: optional(name),
      });
      const credential = await createPasskey(options);
      await authApi.setupComplete({ setupToken, credential });
      await resetSession(queryClient);
      await navigate({ to: '/' });
    } catch (err) {
      setError(err);
      setBusy(false);
      // Send the person back to the step whose field the server refused.
      if (err instanceof ApiError) {
        const paths = err.issues.map((i) => String(i.path[0]));
        if (paths.some((p) => STEP_FIELDS[1].includes(p))) setStep(1);
        else if (paths.some((p) => STEP_FIELDS[2].includes(p))) setStep(2);
      }
    }
  }

  return (
    <AuthLayout>
      <div className="page page--narrow">
        <p className="eyebrow">Welcome</p>
        <h1 className="page__title">Set up your site</h1>
        <p className="page__lead">Three short steps, and you are the first administrator of this site.</p>
        {refusal && showRefusal ? <ProviderRefusal code={refusal} /> : null}
        <ol className="steps" aria-label="Setup progress">
          {STEPS.map((label, i) => {
            const n = i + 1;
            const state = n < step ? 'done' : n === step ? 'current' : 'todo';
            return (
              <li
                key={label}
                className={`steps__item steps__item--${state}`}
                aria-current={n === step ? 'step' : undefined}
              >
                <span className="steps__num" aria-hidden="true">
                  {n < step ? '✓' : n}
                </span>
                <span className="steps__label">
                  {label}
                  <span className="visually-hidden">{state === 'done' ? ' (done)' : ''}</span>
                </span>
              </li>
            );
          })}
        </ol>

        {step === 1 ? (
          <form onSubmit={next} noValidate className="stack">
            <h2 ref={stepHeading} tabIndex={-1} className="step-title">
              Step 1 of 3: your site
            </h2>
            <TextField
              label="Site title"
              name="siteTitle"
              required
              autoFocus
              value={siteTitle}
              onValue={setSiteTitle}
              error={fieldError('siteTitle')}
              maxLength={200}
            />
            <TextField
              label="Tagline"
              name="tagline"
              optional
              hint="A short line that describes the site."
              value={tagline}
              onValue={setTagline}
              error={fieldError('tagline')}
              maxLength={300}
            />
            <ErrorMessage error={error} extra={otherIssues(error, [...STEP_FIELDS[1], ...STEP_FIELDS[2]])} />
            <div className="actions">
              <Button type="submit" variant="primary">
                Continue
              </Button>
            </div>
          </form>
        ) : null}

        {step === 2 ? (
          <form onSubmit={next} noValidate className="stack">
            <h2 ref={stepHeading} tabIndex={-1} className="step-title">
              Step 2 of 3: your account
            </h2>
            <TextField
              label="Email"
              name="email"
              type="email"
              required
              autoComplete="email"
              hint="Used for sign-in links and notifications."
              value={email}
              onValue={setEmail}
              error={fieldError('email')}
            />
            <TextField
              label="Name"
              name="name"
              optional
              autoComplete="name"
              value={name}
              onValue={setName}
              error={fieldError('name')}
              maxLength={200}
            />
            <ErrorMessage error={error} extra={otherIssues(error, [...STEP_FIELDS[1], ...STEP_FIELDS[2]])} />
            <div className="actions">
              <Button type="submit" variant="primary">
                Continue
              </Button>
              <Button variant="ghost" onClick={() => setStep(1)}>
                Back
              </Button>
            </div>
          </form>
        ) : null}

        {step === 3 ? (
          <div className="stack">
            <h2 ref={stepHeading} tabIndex={-1} className="step-title">
              {providers.length ? 'Step 3 of 3: choose how you sign in' : 'Step 3 of 3: create a passkey'}
            </h2>
            <p>
              A passkey signs you in with your device’s screen lock, a fingerprint or a security key — no password to
              remember or leak. Your device keeps the private key; the site stores only the public part.
            </p>
            <dl className="summary">
              <div>
                <dt>Site</dt>
                <dd>{siteTitle.trim()}</dd>
              </div>
              <div>
                <dt>Administrator</dt>
                <dd>
                  {name.trim() ? `${name.trim()} · ` : ''}
                  {email.trim()}
                </dd>
              </div>
            </dl>
            <ErrorMessage error={error} extra={otherIssues(error, [...STEP_FIELDS[1], ...STEP_FIELDS[2]])} />
            <div className="actions">
              <Button variant="primary" onClick={createAccount} busy={busy} busyLabel="Waiting for your passkey…">
                Create passkey and finish
              </Button>
              <Button variant="ghost" onClick={() => setStep(2)} disabled={busy}>
                Back
              </Button>
            </div>
            {providers.length ? (
              <>
                <div className="divider" aria-hidden="true">
                  <span>or</span>
                </div>
                <p className="muted small">
                  Or use an account you already have: the first account then takes the email address that provider
                  confirms (a provider that asks for a handle uses the address above).
                </p>
                <ProviderChoices
                  providers={providers}
                  label="Providers that can create the first account"
                  start={{
                    intent: 'setup',
                    siteTitle: siteTitle.trim(),
                    tagline: optional(tagline),
                    name: optional(name),
                  }}
                  setupEmail={email.trim()}
                  verb={(p) => `Continue with ${p.label}`}
                  disabled={busy}
                  onStart={() => {
                    setShowRefusal(false);
                    setError(null);
                  }}
                  onLeave={() => keep({ siteTitle, tagline, email, name })}
                />
              </>
            ) : null}
          </div>
        ) : null}
      </div>
    </AuthLayout>
  );
}
