import { expect } from 'vitest';
import { cliSite } from './cli.js';
import { png, uploaded } from './media.js';

/** A small site for the transfer commands: the blog starter (collections, entries, terms, menus, settings) and one image. */
export async function blogSite(kind: Parameters<typeof cliSite>[0]) {
  const site = await cliSite(kind);
  const seeded = await site.run(['seed', '--starter', 'blog']);
  expect(seeded.code, seeded.stderr).toBe(0);
  const image = await uploaded(site.cms, await png(12, 8));
  return { site, image };
}
