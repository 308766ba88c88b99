import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { api, type User, unwrap } from '../../api/client';
import { keys } from '../../api/structure';
import { type ImportPlan, importKeys, type PlanItem, type PlanPrincipal } from '../../api/transferImport';
import { Button } from '../../components/Button';
import { CopyField } from '../../components/CopyField';
import { TypedConfirm } from '../../components/TypedConfirm';
import { formatDateTime } from '../../lib/format';
import { formatBytes } from '../../lib/media';
import { roleName } from '../../lib/roles';
import { meQuery } from '../../lib/session';
import { BLOCKER_ADVICE, transformationText } from './importWords';
import { ByKind, Fact, IssueCode } from './TransferParts';
import type { ImportRunner } from './useImportRunner';
import { formatCount, plural, recordTotal } from './words';

/** The word typed to confirm an import. */
export const CONFIRM_WORD = 'import';

/**
 * This site's users to attribute package users to: the first hundred (a site
 * an import goes into has few), and any user a plan names that is not among
 * them, fetched by ID.
 */
function useSiteUsers(named: string[]) {
  const list = useQuery({
    queryKey: importKeys.users,
    queryFn: () => unwrap(api.GET('/admin/users', { params: { query: { limit: 100 } } })),
  });
  const known = new Set(list.data?.items.map((u) => u.id) ?? []);
  const extra = list.isSuccess ? [...new Set(named)].filter((id) => !known.has(id)) : [];
  const more = useQueries({
    queries: extra.map((id) => ({
      queryKey: [...importKeys.users, id],
      queryFn: () => unwrap(api.GET('/admin/users/{id}', { params: { path: { id } } })),
    })),
  });
  const users: User[] = [...(list.data?.items ?? []), ...more.flatMap((q) => (q.data ? [q.data] : []))];
  return { users, pending: list.isPending, error: list.error };
}

/**
 * The decision a choice shows: the one just sent while the plan is made
 * again (until the new plan replaces this one), else the plan's own.
 */
function useSentDecision<T>(planned: T, deciding: boolean, onDecide: (value: T) => void): [T, (value: T) => void] {
  const [sent, setSent] = useState<{ value: T } | null>(null);
  useEffect(() => {
    if (!deciding) setSent(null);
  }, [deciding]);
  const decide = (value: T) => {
    setSent({ value });
    onDecide(value);
  };
  return [deciding && sent ? sent.value : planned, decide];
}

const userLabel = (u: User) => `${u.name ? `${u.name} — ` : ''}${u.email} (${roleName(u.role)})`;

function PlanItems({ items, total, kind }: { items: PlanItem[]; total: number; kind: 'blocker' | 'warning' }) {
  return (
    <>
      <ul className="transfer-issues">
        {items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items have no ID; the list never reorders
          <li key={`${item.code}-${i}`} data-code={item.code}>
            <span>
              <IssueCode code={item.code} kind={item.kind} />
            </span>{' '}
            {item.message}.
            {kind === 'blocker' && BLOCKER_ADVICE[item.code] ? (
              <span className="transfer-issues__advice">
                <strong>What to do:</strong> {BLOCKER_ADVICE[item.code]}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {total > items.length ? (
        <p className="small">
          And {plural(total - items.length, kind)} more (the plan lists the first {items.length}).
        </p>
      ) : null}
    </>
  );
}

/** One package user and where their records go: a user of this site, or a user created from the package. */
function PrincipalChoice({
  principal,
  users,
  you,
  disabled,
  deciding,
  onDecide,
}: {
  principal: PlanPrincipal;
  users: User[];
  /** The signed-in administrator: offered first when no user of this site has the package user's address. */
  you: string | undefined;
  disabled: boolean;
  /** A decision is on its way: show the one sent until the new plan replaces this one. */
  deciding: boolean;
  onDecide: (target: string | null) => void;
}) {
  const id = useId();
  const name = principal.name ?? 'A user without a name';
  const suggested = users.find((u) => u.id === principal.suggestedUserId);
  // The user the select offers: the one picked here, else the one with the same address, else the first.
  const [chosen, setPicked] = useState<string | null>(null);
  const picked = chosen ?? principal.mappedUserId ?? principal.suggestedUserId ?? you ?? users[0]?.id ?? '';
  const [mapped, decide] = useSentDecision(principal.mappedUserId, deciding, onDecide);
  const attribute = mapped !== null;
  const selectValue = mapped ?? picked;
  return (
    <li className="transfer-principal" data-testid="principal" data-principal={principal.id}>
      <fieldset>
        <legend className="transfer-principal__name">
          {name} <span className="pill">{roleName(principal.role)}</span>
          {principal.disabled ? <span className="pill pill--trashed">Disabled</span> : null}
          {principal.email ? <span className="muted transfer-principal__email"> {principal.email}</span> : null}
        </legend>
        <p className="small muted">
          {principal.records > 0
            ? `Named by ${plural(principal.records, 'record')} of the package (as author, uploader, byline …). `
            : 'No record of the package names this user. '}
          {suggested
            ? `${suggested.name ?? suggested.email}, a user of this site, has the same e-mail address.`
            : 'No user of this site has its e-mail address.'}
        </p>
        <div className="transfer-principal__options">
          <div className="transfer-principal__option">
            <label className="check check--inline">
              <input
                type="radio"
                name={`${id}-choice`}
                checked={attribute}
                disabled={disabled || !users.length}
                onChange={() => selectValue && decide(selectValue)}
              />
              <span>Attribute to</span>
            </label>
            <select
              className="input select input--small"
              aria-label={`User of this site to attribute the records of ${name} to`}
              value={selectValue}
              disabled={disabled || !users.length}
              onChange={(e) => {
                setPicked(e.target.value);
                if (attribute) decide(e.target.value);
              }}
            >
              {users.map((u) => (
                <option key={u.id} value={u.id}>
                  {userLabel(u)}
                  {u.id === principal.suggestedUserId ? ' · same e-mail address' : ''}
                </option>
              ))}
            </select>
          </div>
          <label className="check check--inline">
            <input
              type="radio"
              name={`${id}-choice`}
              checked={!attribute}
              disabled={disabled}
              onChange={() => decide(null)}
            />
            <span>
              Create this user
              <span className="check__hint">
                With the package’s name, e-mail address{principal.email ? ` (${principal.email})` : ''} and role (
                {roleName(principal.role)}).
              </span>
            </span>
          </label>
        </div>
      </fieldset>
    </li>
  );
}

/**
 * The accounts the import will create, each with its address and role, in
 * one list an administrator reads before typing the confirmation: an import
 * must never add an administrator nobody noticed.
 */
function CreatedAccounts({ principals }: { principals: PlanPrincipal[] }) {
  const created = principals.filter((p) => p.mappedUserId === null);
  if (!created.length) {
    return (
      <p className="small" data-testid="plan-created-accounts">
        No account is created: every package user’s records go to a user of this site.
      </p>
    );
  }
  const admins = created.filter((p) => p.roleName === 'admin').length;
  return (
    <div className="alert alert--info" data-testid="plan-created-accounts">
      <p>
        <strong>This import creates {plural(created.length, 'account')}</strong>
        {admins ? `, ${plural(admins, 'administrator')} among them` : ''}:
      </p>
      <ul className="transfer-created">
        {created.map((p) => (
          <li key={p.id} data-principal={p.id}>
            {p.name ?? 'A user without a name'} · {p.email ?? 'address not shown'} ·{' '}
            <span className={`pill${p.roleName === 'admin' ? ' pill--warn' : ''}`}>{roleName(p.role)}</span>
            {p.disabled ? ' · disabled' : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Keep the package's title (or tagline) or this site's. */
function KeepChoice({
  legend,
  value,
  packageText,
  siteText,
  disabled,
  deciding,
  onChange,
}: {
  legend: string;
  value: 'package' | 'target';
  packageText: string | null;
  siteText: string | null | undefined;
  disabled: boolean;
  deciding: boolean;
  onChange: (v: 'package' | 'target') => void;
}) {
  const id = useId();
  const [shown, choose] = useSentDecision(value, deciding, onChange);
  const quote = (t: string | null | undefined) => (t ? `“${t}”` : '(none)');
  return (
    <fieldset className="transfer-keep">
      <legend className="field__label">{legend}</legend>
      <label className="check check--inline">
        <input
          type="radio"
          name={id}
          checked={shown === 'package'}
          disabled={disabled}
          onChange={() => choose('package')}
        />
        <span>The package’s: {quote(packageText)}</span>
      </label>
      <label className="check check--inline">
        <input
          type="radio"
          name={id}
          checked={shown === 'target'}
          disabled={disabled}
          onChange={() => choose('target')}
        />
        <span>This site’s: {siteText === undefined ? '…' : quote(siteText)}</span>
      </label>
    </fieldset>
  );
}

/** The plan of a planned import: what it holds, the decisions, what stops it, and the way to execute it. */
export function PlanView({ plan, runner }: { plan: ImportPlan; runner: ImportRunner }) {
  const named = plan.principals.items.flatMap((p) => [p.suggestedUserId, p.mappedUserId]).filter((x) => x !== null);
  const site = useSiteUsers(named as string[]);
  const settings = useQuery({ queryKey: keys.settings, queryFn: () => unwrap(api.GET('/settings')) });
  const me = useQuery(meQuery);
  const busy = runner.busy;
  const { source } = plan;

  return (
    <div className="transfer-plan" data-testid="import-plan" data-executable={plan.executable}>
      {plan.blockers.total > 0 ? (
        <div className="alert alert--error transfer-blockers" data-testid="plan-blockers">
          <h4 className="transfer-plan__title">
            {plan.blockers.total === 1
              ? 'One thing stops this import'
              : `${plan.blockers.total} things stop this import`}
          </h4>
          <PlanItems items={plan.blockers.items} total={plan.blockers.total} kind="blocker" />
        </div>
      ) : (
        <p className="alert alert--success" data-testid="plan-ready">
          Nothing stops this import. Review the plan, then import the package.
        </p>
      )}

      {runner.activity === 'deciding' ? (
        <p className="small muted transfer-plan__updating" aria-hidden="true">
          <span className="spinner spinner--inline" /> Updating the plan…
        </p>
      ) : null}

      <section aria-labelledby="plan-source">
        <h4 className="transfer-plan__title" id="plan-source">
          From
        </h4>
        <dl className="transfer-facts">
          <Fact term="Site" className="transfer-facts__wide">
            {source.url}
          </Fact>
          <Fact term="Title">{source.title ?? '—'}</Fact>
          <Fact term="Tagline">{source.tagline ?? '—'}</Fact>
          <Fact term="Exported">{formatDateTime(source.createdAt)}</Fact>
          <Fact term="Release">
            {source.release} <span className="muted">({source.schemaVersion})</span>
          </Fact>
        </dl>
      </section>

      <section aria-labelledby="plan-contents">
        <h4 className="transfer-plan__title" id="plan-contents">
          What it holds
        </h4>
        <dl className="transfer-facts">
          <Fact term="Records">{formatCount(recordTotal(plan.counts.records))}</Fact>
          <Fact term="Media files">
            {formatCount(plan.counts.mediaFiles)} · {formatBytes(plan.sizes.mediaBytes)}
          </Fact>
          <Fact term="Package">
            {plural(plan.counts.files, 'file')} · {formatBytes(plan.sizes.bytes)}
          </Fact>
        </dl>
        <ByKind counts={plan.counts.records} />
      </section>

      <section aria-labelledby="plan-principals">
        <h4 className="transfer-plan__title" id="plan-principals">
          Users of the package
        </h4>
        <p className="small muted">
          Each user of the old site either becomes a user of this one, or their records go to a user this site already
          has. Passwords, passkeys and tokens never travel: created users sign in by magic link or passkey.
        </p>
        <CreatedAccounts principals={plan.principals.items} />
        {plan.principals.items.length ? (
          <ul className="transfer-principals">
            {plan.principals.items.map((p) => (
              <PrincipalChoice
                key={`${p.id}:${p.mappedUserId}`}
                principal={p}
                users={site.users}
                you={me.data?.user.id}
                disabled={busy || site.pending}
                deciding={runner.activity === 'deciding'}
                onDecide={(target) => runner.decide({ principals: { [p.id]: target } })}
              />
            ))}
          </ul>
        ) : (
          <p className="empty">The package has no users.</p>
        )}
        {plan.principals.total > plan.principals.items.length ? (
          <p className="small">
            And {plural(plan.principals.total - plan.principals.items.length, 'user')} more, created unless decided
            otherwise (the plan lists the first {plan.principals.items.length}).
          </p>
        ) : null}
      </section>

      <section aria-labelledby="plan-identity">
        <h4 className="transfer-plan__title" id="plan-identity">
          Title and tagline
        </h4>
        <div className="transfer-keeps">
          <KeepChoice
            legend="Site title"
            value={plan.decisions.title}
            packageText={source.title}
            siteText={settings.data?.title}
            disabled={busy}
            deciding={runner.activity === 'deciding'}
            onChange={(title) => runner.decide({ title })}
          />
          <KeepChoice
            legend="Tagline"
            value={plan.decisions.tagline}
            packageText={source.tagline}
            siteText={settings.data?.tagline}
            disabled={busy}
            deciding={runner.activity === 'deciding'}
            onChange={(tagline) => runner.decide({ tagline })}
          />
        </div>
      </section>

      {plan.transformations.length ? (
        <section aria-labelledby="plan-transformations">
          <h4 className="transfer-plan__title" id="plan-transformations">
            What the import does on the way
          </h4>
          <ul className="transfer-issues">
            {plan.transformations.map((t) => (
              <li key={`${t.code}:${t.kind ?? ''}`} data-code={t.code}>
                {transformationText(t.code, t.count, t.kind)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {plan.warnings.total > 0 ? (
        <section aria-labelledby="plan-warnings" className="alert alert--warn">
          <h4 className="transfer-plan__title" id="plan-warnings">
            {plural(plan.warnings.total, 'warning')}
          </h4>
          <PlanItems items={plan.warnings.items} total={plan.warnings.total} kind="warning" />
        </section>
      ) : null}

      <details className="transfer-kinds">
        <summary>Digests</summary>
        <div className="stack transfer-digests">
          <CopyField label="Package digest" value={plan.packageDigest} />
          <CopyField
            label="Plan digest"
            value={plan.planDigest}
            hint="Changes with every decision; the import runs only the plan with this digest."
          />
        </div>
      </details>

      <div className="transfer-execute" data-testid="plan-execute">
        {plan.executable ? (
          <TypedConfirm
            primary
            word={CONFIRM_WORD}
            action="Import into this site"
            busy={runner.activity === 'executing'}
            onConfirm={() => runner.execute(plan)}
            explanation={
              <>
                <p>
                  This writes the whole package into this site: {formatCount(recordTotal(plan.counts.records))} records
                  and {plural(plan.counts.mediaFiles, 'media file')} ({formatBytes(plan.sizes.mediaBytes)}), with the
                  decisions above.
                </p>
                <p>
                  Until it completes, <strong>every other change to this site is paused</strong>: editors, API clients,
                  AI tools and scheduled publishing get <code className="code">503</code>{' '}
                  <code className="code">TRANSFER_IMPORT_IN_PROGRESS</code>. If it fails or is cancelled, the site stays
                  paused until you abandon the import, which undoes what it wrote.
                </p>
              </>
            }
          />
        ) : (
          <p className="small">
            <strong>Import is not available</strong> until every blocker above is resolved.
          </p>
        )}
        <Button variant="ghost" size="small" disabled={busy} onClick={() => runner.decide(null)}>
          Check the plan again
        </Button>
        <span className="small muted">Makes the plan anew against this site as it is now.</span>
      </div>
    </div>
  );
}
