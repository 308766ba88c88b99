import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { mimeAllowed, mimeMismatch, servedInline, sniffMime } from '../../src/services/media/mime.js';

const sniff = (bytes: Buffer | string, claimed = '') => sniffMime(Buffer.from(bytes), true, claimed);

describe('media type sniffing', () => {
  it('reads binary formats from their signatures, whatever the claim', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await sniff(png, 'text/plain')).toBe('image/png');
    expect(await sniff('%PDF-1.7\n%\xe2\xe3\n', 'image/png')).toBe('application/pdf');
    expect(await sniff(Buffer.from([0, 1, 2, 3, 255, 254]))).toBe('application/octet-stream');
  });

  it('tells SVG and HTML from other text, and keeps the claimed text format otherwise', async () => {
    expect(await sniff('<?xml version="1.0"?><!-- c --><svg xmlns="http://www.w3.org/2000/svg"/>')).toBe(
      'image/svg+xml',
    );
    expect(await sniff('\uFEFF  <svg viewBox="0 0 1 1"></svg>')).toBe('image/svg+xml');
    expect(await sniff('<!DOCTYPE html><p>x')).toBe('text/html');
    expect(await sniff('  <script>alert(1)</script>', 'text/plain')).toBe('text/html');
    expect(await sniff('# Title\n\nSome <b>bold</b> text', 'text/markdown')).toBe('text/markdown');
    expect(await sniff('a,b\n1,2', 'text/csv')).toBe('text/csv');
    expect(await sniff('{"a":1}', 'application/json')).toBe('application/json');
    expect(await sniff('just words', 'image/png')).toBe('text/plain');
    expect(await sniff('nul\u0000inside', 'text/plain')).toBe('application/octet-stream');
  });

  it('calls a claim a mismatch only when it names another kind of file', () => {
    expect(mimeMismatch('image/png', 'image/jpeg')).toBe(false);
    expect(mimeMismatch('', 'image/jpeg')).toBe(false);
    expect(mimeMismatch('application/octet-stream', 'application/pdf')).toBe(false);
    expect(mimeMismatch('text/plain', 'text/csv')).toBe(false);
    expect(mimeMismatch('image/png', 'text/html')).toBe(true);
    expect(mimeMismatch('image/png', 'image/svg+xml')).toBe(true);
    expect(mimeMismatch('text/plain', 'text/html')).toBe(true);
    expect(mimeMismatch('application/pdf', 'image/png')).toBe(true);
  });

  it('matches allowlists by type or family, and serves only passive types inline', () => {
    expect(mimeAllowed('image/webp', ['image/*'])).toBe(true);
    expect(mimeAllowed('imagex/webp', ['image/*'])).toBe(false);
    expect(mimeAllowed('application/pdf', ['Application/PDF'])).toBe(true);
    expect(servedInline('image/png')).toBe(true);
    expect(servedInline('video/mp4')).toBe(true);
    expect(servedInline('image/svg+xml')).toBe(false);
    expect(servedInline('text/html')).toBe(false);
    expect(servedInline('application/zip')).toBe(false);
  });
});
