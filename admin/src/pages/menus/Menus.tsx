import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys, type Menu } from '../../api/structure';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { LocaleSelect } from '../../components/LocaleSelect';
import { Page, Section } from '../../components/Page';
import { issueFor, otherIssues } from '../../lib/forms';
import { localeName, useLocales } from '../../lib/locales';
import { machineName } from '../taxonomies/Taxonomies';

/** Editors: the menus of one locale, and a form to add one. */
export function MenusPage() {
  const { defaultLocale, multilingual } = useLocales();
  const [locale, setLocale] = useState(defaultLocale);
  const list = useQuery({
    queryKey: [...keys.menus, { locale }],
    queryFn: () => unwrap(api.GET('/menus', { params: { query: { locale, limit: 100 } } })),
  });
  const items = list.data?.items ?? [];
  return (
    <Page
      title="Menus"
      description="Navigation for your site: links to entries, terms and addresses, nested as deep as you need."
    >
      <CreateMenu locale={locale} />
      <Section id="menu-list" title={multilingual ? `Menus in ${localeName(locale)}` : 'Your menus'}>
        <div className="toolbar">
          <LocaleSelect value={locale} onValue={setLocale} label="Language" />
        </div>
        {list.isPending ? <Spinner /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !items.length ? (
          <p className="empty">
            No menus in this language yet. Create “main” for the header or “footer” for the bottom of your pages
            {multilingual ? ', or open a menu of another language and translate it' : ''}.
          </p>
        ) : null}
        {items.length ? (
          <ul className="rows" aria-label="Menus">
            {items.map((m) => (
              <MenuRow key={m.id} menu={m} />
            ))}
          </ul>
        ) : null}
      </Section>
    </Page>
  );
}

function MenuRow({ menu }: { menu: Menu }) {
  return (
    <li className="row">
      <div className="row__main">
        <p className="row__title">
          <Link to="/menus/$name" params={{ name: menu.name }} search={{ locale: menu.locale }}>
            {menu.label}
          </Link>
        </p>
        <p className="row__meta">
          <span className="chip">{menu.name}</span>
          <span>
            {menu.itemCount} {menu.itemCount === 1 ? 'item' : 'items'}
          </span>
        </p>
      </div>
      <div className="row__actions">
        <Link
          to="/menus/$name"
          params={{ name: menu.name }}
          search={{ locale: menu.locale }}
          className="button button--ghost button--small"
        >
          Edit<span className="visually-hidden"> {menu.label}</span>
        </Link>
      </div>
    </li>
  );
}

function CreateMenu({ locale }: { locale: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [label, setLabel] = useState('');
  const [local, setLocal] = useState<string | undefined>();
  const create = useMutation({
    mutationFn: (body: { name: string; label: string; locale: string }) => unwrap(api.POST('/menus', { body })),
    onSuccess: (m) => {
      queryClient.invalidateQueries({ queryKey: keys.menus });
      navigate({ to: '/menus/$name', params: { name: m.name }, search: { locale: m.locale } });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const name = machineName(label);
    if (!label.trim() || !name) {
      setLocal('Enter a name such as “Main menu”.');
      return;
    }
    setLocal(undefined);
    create.mutate({ name, label: label.trim(), locale });
  }
  const name = machineName(label);
  return (
    <Section id="new-menu" title="New menu">
      <form className="inline-form" onSubmit={submit} noValidate>
        <TextField
          label="Menu name"
          hint={
            name ? `Your site asks for it as “${name}”.` : 'Your site asks for the menu by a short name made from this.'
          }
          name="menu-label"
          placeholder="Main menu"
          value={label}
          onValue={setLabel}
          error={local ?? issueFor(create.error, 'label') ?? issueFor(create.error, 'name')}
        />
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create menu
        </Button>
      </form>
      <ErrorMessage error={create.error} extra={otherIssues(create.error, ['label', 'name'])} />
    </Section>
  );
}
