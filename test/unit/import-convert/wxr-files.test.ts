/** Every post of the real WordPress test exports converts, validates and keeps its text. */
import { describe, expect, it } from 'vitest';
import { wpContentToPortableText } from '../../../src/services/import/convert/index.js';
import { checkPortableText } from '../../../src/services/rich-text.js';
import { blocksText, comparable, htmlText } from './text.js';
import { wxrPosts } from './wxr-posts.js';

/** Posts whose report must be non-empty: dynamic blocks, custom HTML, unknown shortcodes, broken media. */
const EXPECTED_REPORTS: Record<string, string[]> = {
  'gutenberg-test-data.xml': ['Gutenberg: Widget Blocks', 'Gutenberg: Formatting Blocks'],
  'themeunittestdata.wordpress.xml': [
    'WP 6.1 Theme block category',
    'WP 6.1 Widgets block category',
    'Post Format: Standard',
    'Post Format: Gallery',
    'Post Format: Audio',
    'Post Format: Gallery (Tiled)',
    'Block category: Formatting',
    'Block category: Widgets',
  ],
  'jetpack-shortcode-test-data.xml': ['Gutenberg + Jetpack Shortcodes'],
};

const FILES = [
  '64-block-test-data.xml',
  'gutenberg-test-data.xml',
  'themeunittestdata.wordpress.xml',
  'jetpack-shortcode-test-data.xml',
];

describe.each(FILES)('%s', (file) => {
  const posts = wxrPosts(file).filter((p) => p.content.trim() !== '');

  it('converts every post to a valid Portable Text value with the same text', () => {
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) {
      const r = wpContentToPortableText(post.content);
      expect(() => checkPortableText(r.blocks, ['content']), post.title).not.toThrow();
      expect(r.blocks.length, post.title).toBeGreaterThan(0);
      expect(comparable(blocksText(r.blocks, post.content)), post.title).toBe(comparable(htmlText(post.content)));
      const keys = r.blocks.map((b) => b._key);
      expect(new Set(keys).size, post.title).toBe(keys.length);
    }
  });

  it('reports unconverted content exactly where the export has some', () => {
    const reported = posts.filter((p) => wpContentToPortableText(p.content).unconverted.length > 0).map((p) => p.title);
    if (file === '64-block-test-data.xml') {
      // The widget and theme block pages (dynamic blocks), custom HTML, footnotes and the broken video address.
      expect(reported).toContain('Custom HTML');
      expect(reported).toContain('Latest posts');
      expect(reported).toContain('Footnotes');
      expect(reported).toContain('Media &amp; Text');
      for (const clean of [
        'Paragraph',
        'Heading',
        'List',
        'Quote',
        'Code',
        'Table',
        'Image',
        'Gallery',
        'Columns',
        'Cover',
        'Classic',
      ]) {
        expect(reported).not.toContain(clean);
      }
      return;
    }
    expect(reported.sort()).toEqual([...(EXPECTED_REPORTS[file] ?? [])].sort());
  });
});
