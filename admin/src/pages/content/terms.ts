/**
 * Taxonomy terms as the entry list and the editor use them: the taxonomies
 * attached to a collection, every term of one in a locale (paged through on
 * the server's cursor), and the terms in tree order with their depth.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { keys, type Taxonomy, type Term } from '../../api/structure';

/** Enough for any taxonomy a person picks from by eye; bigger ones are searched by name. */
const MAX_TERMS = 1000;

export function useCollectionTaxonomies(collection: string, locale: string) {
  return useQuery({
    queryKey: [...keys.taxonomies, 'for-collection', collection, locale],
    queryFn: async (): Promise<Taxonomy[]> => {
      const data = await unwrap(api.GET('/taxonomies', { params: { query: { locale, limit: 100 } } }));
      return data.items.filter((t) => t.collections.includes(collection));
    },
    enabled: Boolean(locale),
    staleTime: 60_000,
  });
}

async function allTerms(name: string, locale: string): Promise<{ terms: Term[]; complete: boolean }> {
  const terms: Term[] = [];
  let cursor: string | undefined;
  do {
    const page = await unwrap(
      api.GET('/taxonomies/{name}/terms', { params: { path: { name }, query: { locale, cursor, limit: 100 } } }),
    );
    terms.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && terms.length < MAX_TERMS);
  return { terms, complete: !cursor };
}

export function useTaxonomyTerms(name: string, locale: string, enabled = true) {
  return useQuery({
    queryKey: [...keys.terms(name), 'all', locale],
    queryFn: () => allTerms(name, locale),
    enabled: enabled && Boolean(locale),
    staleTime: 30_000,
  });
}

export interface TreeRow {
  term: Term;
  depth: number;
}

/** Parents before their children, siblings by position then label; orphans (parent not listed) at the top level. */
export function termTree(terms: readonly Term[]): TreeRow[] {
  const ids = new Set(terms.map((t) => t.id));
  const children = new Map<string | null, Term[]>();
  for (const t of terms) {
    const parent = t.parentId && ids.has(t.parentId) ? t.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), t]);
  }
  const order = (a: Term, b: Term) => a.position - b.position || a.label.localeCompare(b.label);
  const out: TreeRow[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, depth: number) => {
    for (const t of [...(children.get(parent) ?? [])].sort(order)) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      out.push({ term: t, depth });
      walk(t.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
