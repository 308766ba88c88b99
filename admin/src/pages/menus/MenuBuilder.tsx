import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { hiddenApi, keys, type MenuWithItems } from '../../api/structure';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Page, Section } from '../../components/Page';
import { issueFor } from '../../lib/forms';
import { localeName, useLocales } from '../../lib/locales';
import { AddItem } from './AddItem';
import { MenuTree } from './MenuTree';
import type { Placement } from './tree-ops';

/** The menu builder: nested items by drag and drop (or buttons), pickers for entries, terms and links. */
export function MenuBuilderPage({ name, locale: asked }: { name: string; locale?: string }) {
  const { defaultLocale } = useLocales();
  const locale = asked ?? defaultLocale;
  const queryClient = useQueryClient();
  const key = keys.menu(name, locale);
  const menu = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/menus/{name}', { params: { path: { name }, query: { locale } } })),
  });
  const [notice, setNotice] = useState<string | null>(null);
  const data = menu.data;
  // GET falls back to another language's menu; the builder only edits the one asked for.
  const elsewhere = data && data.locale !== locale;
  const path = { path: { name }, query: { locale } };
  const reorder = useMutation({
    mutationFn: (items: Placement[]) => unwrap(api.POST('/menus/{name}/reorder', { params: path, body: { items } })),
    onSuccess: (m) => queryClient.setQueryData(key, m),
    onError: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.menus });
  return (
    <Page
      title={data && !elsewhere ? data.label : 'Menu'}
      description={
        data && !elsewhere ? (
          <>
            <span className="chip">{data.name}</span> {localeName(data.locale)} · {data.itemCount}{' '}
            {data.itemCount === 1 ? 'item' : 'items'}
          </>
        ) : undefined
      }
      actions={
        <Link to="/menus" className="button button--ghost button--small">
          All menus
        </Link>
      }
    >
      {menu.isPending ? <Spinner /> : null}
      {menu.isError ? <ErrorMessage error={menu.error} /> : null}
      {elsewhere && data ? <Untranslated source={data} locale={locale} /> : null}
      {data && !elsewhere ? (
        <>
          <Section
            id="items"
            title="Items"
            description="Drag items to reorder them; drag right to nest one under the item above. The buttons do the same from the keyboard."
          >
            {notice ? <Notice tone="success">{notice}</Notice> : null}
            <ErrorMessage error={reorder.error} />
            <MenuTree
              menu={data}
              locale={locale}
              busy={reorder.isPending}
              onPlace={(items) => {
                setNotice(null);
                reorder.mutate(items);
              }}
              onChanged={(message) => {
                setNotice(message);
                queryClient.invalidateQueries({ queryKey: key });
                refresh();
              }}
            />
          </Section>
          <AddItem
            name={name}
            locale={locale}
            onAdded={(message) => {
              setNotice(message);
              queryClient.invalidateQueries({ queryKey: key });
              refresh();
            }}
          />
          <Translations menu={data} />
          <MenuSettings menu={data} />
        </>
      ) : null}
    </Page>
  );
}

/** No menu of this name in the locale yet: start it as a translation of the one shown. */
function Untranslated({ source, locale }: { source: MenuWithItems; locale: string }) {
  return (
    <Section id="translate" title={`No ${localeName(locale)} version yet`}>
      <p className="card__lead">
        Readers in {localeName(locale)} see the {localeName(source.locale)} menu “{source.label}”. Translate it to give
        them their own: its items are copied, and entries and terms show in {localeName(locale)} where they exist.
      </p>
      <TranslateButton source={source} locale={locale} />
    </Section>
  );
}

function TranslateButton({ source, locale }: { source: MenuWithItems; locale: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/menus', { body: { translationOf: source.id, locale, label: source.label } })),
    onSuccess: (m) => {
      queryClient.invalidateQueries({ queryKey: keys.menus });
      navigate({ to: '/menus/$name', params: { name: m.name }, search: { locale: m.locale } });
    },
  });
  return (
    <>
      <ErrorMessage error={create.error} />
      <Button variant="primary" size="small" onClick={() => create.mutate()} busy={create.isPending}>
        Translate into {localeName(locale)}
      </Button>
    </>
  );
}

function Translations({ menu }: { menu: MenuWithItems }) {
  const { locales, multilingual } = useLocales();
  const translations = useQuery({
    queryKey: [...keys.menus, 'translations', menu.translationGroup],
    queryFn: () => hiddenApi.menuTranslations(menu.translationGroup),
    enabled: multilingual,
  });
  if (!multilingual) return null;
  const have = new Map((translations.data?.items ?? []).map((m) => [m.locale, m]));
  return (
    <Section id="translations" title="Translations" description="Each language has its own copy of the menu.">
      <ErrorMessage error={translations.error} />
      <ul className="rows" aria-label="Translations of the menu">
        {locales
          .filter((l) => l !== menu.locale)
          .map((l) => {
            const m = have.get(l);
            return (
              <li key={l} className="row">
                <span>{localeName(l)}</span>
                {m ? (
                  <Link to="/menus/$name" params={{ name: m.name }} search={{ locale: l }}>
                    {m.label} ({m.itemCount} items)
                  </Link>
                ) : (
                  <TranslateButton source={menu} locale={l} />
                )}
              </li>
            );
          })}
      </ul>
    </Section>
  );
}

function MenuSettings({ menu }: { menu: MenuWithItems }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [label, setLabel] = useState(menu.label);
  const path = { path: { name: menu.name }, query: { locale: menu.locale } };
  const save = useMutation({
    mutationFn: () => unwrap(api.PUT('/menus/{name}', { params: path, body: { label } })),
    onSuccess: (m) => {
      queryClient.setQueryData(keys.menu(m.name, m.locale), m);
      queryClient.invalidateQueries({ queryKey: keys.menus });
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/menus/{name}', { params: path })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: keys.menus });
      navigate({ to: '/menus' });
    },
  });
  return (
    <Section id="menu-settings" title="Menu">
      <form
        className="inline-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <TextField
          label="Label"
          name="menu-label"
          value={label}
          onValue={setLabel}
          error={issueFor(save.error, 'label')}
        />
        <Button type="submit" size="small" busy={save.isPending}>
          Save label
        </Button>
      </form>
      <ErrorMessage error={save.error ?? remove.error} />
      <div className="actions">
        <ConfirmButton
          label="Delete menu"
          question={`Delete “${menu.label}” in ${localeName(menu.locale)} and its items?`}
          confirmLabel="Delete menu"
          onConfirm={() => remove.mutate()}
          busy={remove.isPending}
        />
      </div>
    </Section>
  );
}
