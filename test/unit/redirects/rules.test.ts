import { describe, expect, it } from 'vitest';
import { walk } from '../../../src/services/redirects/chains.js';
import { Matcher } from '../../../src/services/redirects/matcher.js';
import { fillTarget, parseSource, targetIssues } from '../../../src/services/redirects/rule.js';

const rule = (id: string, source: string, target: string, createdAt = id) => ({
  id,
  source,
  target,
  statusCode: 301 as const,
  createdAt,
});

describe('redirect sources', () => {
  it('derives the kind and the bucket head, normalising like URLs', () => {
    expect(parseSource('/old/')).toMatchObject({ source: '/old', kind: 'exact' });
    expect(parseSource('/a/./b/../c')).toMatchObject({ source: '/a/c', kind: 'exact' });
    expect(parseSource('/docs/*')).toMatchObject({ kind: 'prefix', head: '/docs', splat: true });
    expect(parseSource('/blog/:year/:slug/*')).toMatchObject({
      kind: 'pattern',
      head: '/blog',
      params: ['year', 'slug'],
    });
    expect(parseSource('/%c3%a9')).toMatchObject({ source: '/%C3%A9' });
    for (const bad of ['x', '//x', '/a?b', '/a#b', '/a b', '/*/x', '/a*', '/:a/:a', '/:splat', '/x:y']) {
      expect(Array.isArray(parseSource(bad)), bad).toBe(true);
    }
  });

  it('checks targets against the captures and keeps captures out of the host', () => {
    const p = parseSource('/a/:slug/*');
    if (Array.isArray(p)) throw new Error('parse');
    expect(targetIssues('/b/:slug/:splat', p)).toEqual([]);
    expect(targetIssues('https://x.example/:slug?p=:splat', p)).toEqual([]);
    expect(targetIssues('/b/:nope', p)[0].path).toEqual(['target']);
    expect(targetIssues('https://:slug.example/', p)).toHaveLength(1);
    expect(targetIssues('//x.example', p)).toHaveLength(1);
    expect(targetIssues('data:text/html,x', p)).toHaveLength(1);
  });

  it('fills targets, carries the query and never yields a protocol-relative path', () => {
    expect(fillTarget('/b/:slug', { slug: 'x' }, '?q=1')).toBe('/b/x?q=1');
    expect(fillTarget('/b?fixed=1', {}, '?q=1')).toBe('/b?fixed=1');
    expect(fillTarget('/b#top', {}, '?q=1')).toBe('/b?q=1#top');
    expect(fillTarget('/:splat', { splat: '/evil.example' }, '')).toBe('/evil.example');
    expect(fillTarget('/:splat', { splat: '\\evil.example' }, '')).toBe('/evil.example');
  });
});

describe('redirect matcher', () => {
  const m = new Matcher([
    rule('1', '/old', '/new'),
    rule('2', '/docs/*', '/manual/:splat'),
    rule('3', '/docs/api/*', '/reference/:splat'),
    rule('4', '/blog/:year/:slug', '/posts/:slug'),
    rule('5', '/blog/archive/:slug', '/archive/:slug'),
    rule('6', '/:lang/about', '/about?lang=:lang'),
    rule('7', '/*', '/catch-all'),
  ]);

  it('prefers exact, then the most literal rule, then the older one', () => {
    expect(m.match('/old')?.location).toBe('/new');
    expect(m.match('/docs/api/v1')?.location).toBe('/reference/v1');
    expect(m.match('/docs/guide')?.location).toBe('/manual/guide');
    expect(m.match('/docs')?.location).toBe('/manual/');
    expect(m.match('/blog/archive/x')?.location).toBe('/archive/x');
    expect(m.match('/blog/2024/x')?.location).toBe('/posts/x');
    expect(m.match('/fr/about')?.location).toBe('/about?lang=fr');
    expect(m.match('/anything/else')?.location).toBe('/catch-all');
  });

  it('finds loops, growing prefixes and chains by walking', () => {
    expect(walk(new Matcher([rule('a', '/a', '/b'), rule('b', '/b', '/a')]), '/a', null)).toMatchObject({ loop: true });
    expect(walk(new Matcher([rule('g', '/g/*', '/g/x/:splat')]), '/g/s', null).loop).toBe(true);
    expect(
      walk(
        new Matcher([rule('a', '/a', 'https://site.example/b'), rule('b', '/b', '/a')]),
        '/a',
        'https://site.example',
      ).loop,
    ).toBe(true);
    expect(walk(new Matcher([rule('a', '/a', 'https://other.example/a')]), '/a', 'https://site.example')).toEqual({
      chain: ['/a', 'https://other.example/a'],
      loop: false,
    });
    expect(walk(new Matcher([rule('a', '/a', '/b'), rule('b', '/b', '/c')]), '/a', null)).toEqual({
      chain: ['/a', '/b', '/c'],
      loop: false,
    });
  });
});
