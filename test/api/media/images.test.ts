import { expect, it } from 'vitest';
import { imageUrl } from '../../../src/index.js';
import { call } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import {
  animatedGif,
  BLUE,
  colourAt,
  facts,
  GREEN,
  getImage,
  imagePath,
  near,
  photo,
  quadrants,
  RED,
  YELLOW,
} from '../../helpers/images.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';

const KEY = 'a-signing-key-of-at-least-thirty-two-characters';
const config = {
  imageSigningKey: KEY,
  imagePresets: { thumb: { w: 200, h: 200, fit: 'cover' as const }, card: { w: 320, h: 180, fm: 'webp' as const } },
};

/** The URL the service's own builder makes (signed when the size needs it). */
const signed = (cms: { config: { publicUrl: string } }, id: string, params: Record<string, unknown>) =>
  imageUrl({ publicUrl: cms.config.publicUrl, signingKey: KEY, presets: config.imagePresets }, { id }, params);

describeEachDialect('Responsive images: parameters', (dialect) => {
  it('resizes to a configured width, keeps the aspect ratio and never enlarges', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const item = await uploaded(cms, await photo(1000, 800), { name: 'photo.jpg', type: 'image/jpeg' });
    const w640 = await getImage(cms, imagePath(item.id, 'w=640'));
    expect(w640.status).toBe(200);
    expect(w640.headers.get('content-type')).toBe('image/jpeg');
    expect(await facts(w640.bytes)).toMatchObject({ format: 'jpeg', width: 640, height: 512 });
    expect(w640.headers.get('content-disposition')).toMatch(/^inline; filename="photo-640x512.jpg"/);
    // 2560 is a configured width, wider than the photo: the photo's own size, not an enlargement.
    const wide = await getImage(cms, imagePath(item.id, 'w=2560'));
    expect(await facts(wide.bytes)).toMatchObject({ width: 1000, height: 800 });
    // No size at all: the image at its size (here re-encoded in its own format).
    const full = await getImage(cms, imagePath(item.id));
    expect(await facts(full.bytes)).toMatchObject({ width: 1000, height: 800 });
  });

  it('fits inside, contains (padded) and covers (cropped) a signed width and height', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const item = await uploaded(cms, await photo(1000, 500), { name: 'wide.jpg', type: 'image/jpeg' });
    const size = async (params: Record<string, unknown>) =>
      facts((await getImage(cms, signed(cms, item.id, params))).bytes);
    expect(await size({ w: 300, h: 300, fit: 'inside' })).toMatchObject({ width: 300, height: 150 });
    expect(await size({ w: 300, h: 300, fit: 'contain' })).toMatchObject({ width: 300, height: 300 });
    expect(await size({ w: 300, h: 300, fit: 'cover' })).toMatchObject({ width: 300, height: 300 });
    // cover is the default with both sides.
    expect(await size({ w: 300, h: 200 })).toMatchObject({ width: 300, height: 200 });
    expect(await size({ h: 100 })).toMatchObject({ width: 200, height: 100 });
    // Larger than the source: the crop keeps the aspect asked for at the source's scale.
    expect(await size({ w: 2000, h: 2000 })).toMatchObject({ width: 500, height: 500 });
    expect(await size({ w: 2000, h: 2000, fit: 'contain' })).toMatchObject({ width: 1000, height: 1000 });
    const padded = (await getImage(cms, signed(cms, item.id, { w: 300, h: 300, fit: 'contain', fm: 'png' }))).bytes;
    // Transparent bands above and below the whole image.
    const { data } = await (await import('sharp'))
      .default(padded)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
  });

  it('encodes each format and quality, and negotiates fm=auto from Accept with Vary', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const item = await uploaded(cms, await photo(800, 600), { name: 'photo.jpg', type: 'image/jpeg' });
    for (const [fm, type, format] of [
      ['webp', 'image/webp', 'webp'],
      ['avif', 'image/avif', 'heif'],
      ['jpeg', 'image/jpeg', 'jpeg'],
      ['png', 'image/png', 'png'],
    ]) {
      const res = await getImage(cms, imagePath(item.id, `w=320&fm=${fm}`));
      expect(res.status, fm).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect((await facts(res.bytes)).format).toBe(format);
      expect(res.headers.get('vary')).toBeNull();
    }
    const low = await getImage(cms, imagePath(item.id, 'w=640&fm=webp&q=10'));
    const high = await getImage(cms, imagePath(item.id, 'w=640&fm=webp&q=95'));
    expect(low.bytes.length).toBeLessThan(high.bytes.length / 2);
    expect(low.headers.get('etag')).not.toBe(high.headers.get('etag'));

    const auto = (accept?: string) => getImage(cms, imagePath(item.id, 'w=320&fm=auto'), accept ? { accept } : {});
    const avif = await auto('image/avif,image/webp,image/apng,*/*;q=0.8');
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect(avif.headers.get('vary')).toBe('Accept');
    const webp = await auto('image/webp,*/*');
    expect(webp.headers.get('content-type')).toBe('image/webp');
    const refused = await auto('image/avif;q=0, image/webp');
    expect(refused.headers.get('content-type')).toBe('image/webp');
    const plain = await auto('*/*');
    expect(plain.headers.get('content-type')).toBe('image/jpeg');
    expect(plain.headers.get('vary')).toBe('Accept');
    const none = await auto();
    expect(none.headers.get('content-type')).toBe('image/jpeg');
    expect(new Set([avif, webp, plain].map((r) => r.headers.get('etag'))).size).toBe(3);
    // A 304 of a negotiated answer still says what it varies on.
    const again = await getImage(cms, imagePath(item.id, 'w=320&fm=auto'), {
      accept: 'image/webp',
      'if-none-match': webp.headers.get('etag') as string,
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('vary')).toBe('Accept');
  });

  it('serves presets without a signature; a preset sets its size and format, fm and q may follow it', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const item = await uploaded(cms, await photo(900, 600), { name: 'photo.jpg', type: 'image/jpeg' });
    const thumb = await getImage(cms, imagePath(item.id, 'preset=thumb'));
    expect(thumb.status).toBe(200);
    expect(await facts(thumb.bytes)).toMatchObject({ format: 'jpeg', width: 200, height: 200 });
    const card = await getImage(cms, imagePath(item.id, 'preset=card'));
    expect(await facts(card.bytes)).toMatchObject({ format: 'webp', width: 320, height: 180 });
    const cardPng = await getImage(cms, imagePath(item.id, 'preset=card&fm=png'));
    expect(cardPng.headers.get('content-type')).toBe('image/png');
    const unknown = await getImage(cms, imagePath(item.id, 'preset=poster'));
    expect(unknown.status).toBe(400);
    expect(unknown.json().error.details.issues[0].path).toEqual(['query', 'preset']);
    const mixed = await getImage(cms, imagePath(item.id, 'preset=thumb&w=640'));
    expect(mixed.status).toBe(400);
  });

  it('refuses unknown, repeated and malformed parameters, and redirects other spellings to the canonical URL', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const item = await uploaded(cms, await photo(400, 300), { name: 'photo.jpg', type: 'image/jpeg' });
    for (const query of [
      'width=640',
      'w=640&w=320',
      'w=0640',
      'w=abc',
      'w=-1',
      'q=0',
      'q=101',
      'fm=gif',
      'fit=fill&w=1&h=1',
      'fit=cover&w=640',
      'v=xyz',
      'sig=short',
    ]) {
      const res = await getImage(cms, imagePath(item.id, query));
      expect(res.status, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_ERROR');
    }
    const moved = await cms.app.request(imagePath(item.id, 'fm=webp&w=640'));
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(imagePath(item.id, 'w=640&fm=webp'));
    const encoded = await cms.app.request(imagePath(item.id, 'w=%36%34%30'));
    expect(encoded.headers.get('location')).toBe(imagePath(item.id, 'w=640'));
    // Unknown or malformed IDs are simply not found.
    expect((await getImage(cms, imagePath('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'w=640'))).status).toBe(404);
    expect((await getImage(cms, imagePath('nope', 'w=640'))).status).toBe(404);
  });
});

describeEachDialect('Responsive images: bounds', (dialect) => {
  it('refuses an unlisted size without a signature, accepts a signed one, refuses a tampered one', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const item = await uploaded(cms, await photo(800, 600), { name: 'photo.jpg', type: 'image/jpeg' });
    const unlisted = await getImage(cms, imagePath(item.id, 'w=641'));
    expect(unlisted.status).toBe(400);
    expect(unlisted.json().error.code).toBe('IMAGE_SIZE_NOT_ALLOWED');
    expect(unlisted.json().error.details.widths).toEqual([320, 640, 960, 1280, 1920, 2560]);
    // A height alone, or with a listed width, is an arbitrary size too.
    expect((await getImage(cms, imagePath(item.id, 'w=640&h=100'))).json().error.code).toBe('IMAGE_SIZE_NOT_ALLOWED');

    const url = signed(cms, item.id, { w: 641, h: 100, fit: 'inside' });
    expect(url).toMatch(/\?w=641&h=100&fit=inside&sig=[A-Za-z0-9_-]{22}$/);
    const ok = await getImage(cms, url);
    expect(ok.status).toBe(200);
    expect(await facts(ok.bytes)).toMatchObject({ width: 133, height: 100 });

    const sig = new URL(url).searchParams.get('sig') as string;
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    for (const tampered of [
      url.replace(`sig=${sig}`, `sig=${flipped}`),
      url.replace('w=641', 'w=642'),
      url.replace(item.id, (await uploaded(cms, await png(50, 50))).id),
    ]) {
      const res = await getImage(cms, tampered);
      expect(res.status, tampered).toBe(403);
      expect(res.json().error.code).toBe('IMAGE_SIGNATURE_INVALID');
    }
    // A wrong signature is refused even where none is needed.
    expect((await getImage(cms, imagePath(item.id, `w=640&sig=${flipped}`))).status).toBe(403);

    // Without a signing key nothing signed is accepted.
    const unsigned = await mediaCms(dialect, 'file');
    const other = await uploaded(unsigned, await photo(800, 600), { name: 'p.jpg', type: 'image/jpeg' });
    expect((await getImage(unsigned, url.replace(item.id, other.id))).json().error.code).toBe(
      'IMAGE_SIGNATURE_INVALID',
    );
    expect(() => imageUrl({ publicUrl: 'http://x' }, { id: other.id }, { w: 641 })).toThrow(/signing key/);
  });

  it('refuses an output above imageMaxPixels', async () => {
    const cms = await mediaCms(dialect, 'file', {
      config: { ...config, imageMaxPixels: 100_000, imageWidths: [320, 640] },
    });
    const item = await uploaded(cms, await photo(800, 600), { name: 'photo.jpg', type: 'image/jpeg' });
    expect((await getImage(cms, imagePath(item.id, 'w=320'))).status).toBe(200);
    const big = await getImage(cms, imagePath(item.id, 'w=640'));
    expect(big.status).toBe(400);
    expect(big.json().error).toMatchObject({
      code: 'IMAGE_TOO_LARGE',
      details: { width: 640, height: 480, imageMaxPixels: 100_000 },
    });
    expect((await getImage(cms, imagePath(item.id))).json().error.code).toBe('IMAGE_TOO_LARGE');
  });

  it('serves SVG as the file itself (a sandboxed download), the first frame of an animation, and no non-image', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const svg = await uploaded(
      cms,
      '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script></svg>',
      { name: 'logo.svg', type: 'image/svg+xml' },
    );
    const vector = await getImage(cms, imagePath(svg.id, 'w=640&fm=png'));
    expect(vector.status).toBe(200);
    expect(vector.headers.get('content-type')).toBe('image/svg+xml');
    expect(vector.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(vector.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(vector.bytes.toString()).toContain('<script>');
    // The bounds hold for SVG too.
    expect((await getImage(cms, imagePath(svg.id, 'w=641'))).status).toBe(400);

    const gif = await uploaded(cms, await animatedGif(40, 20), { name: 'anim.gif', type: 'image/gif' });
    const still = await getImage(cms, imagePath(gif.id, 'w=320'));
    expect(still.headers.get('content-type')).toBe('image/png');
    expect(await facts(still.bytes)).toMatchObject({ width: 40, height: 20, pages: 1 });
    expect(near(await colourAt(still.bytes, 0.5, 0.5), RED)).toBe(true);
    const webp = await getImage(cms, imagePath(gif.id, 'fm=webp'));
    expect((await facts(webp.bytes)).pages).toBe(1);

    const pdf = await uploaded(cms, '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', {
      name: 'doc.pdf',
      type: 'application/pdf',
    });
    const refused = await getImage(cms, imagePath(pdf.id, 'w=320'));
    expect(refused.status).toBe(400);
    expect(refused.json().error.code).toBe('IMAGE_NOT_TRANSFORMABLE');
  });

  it('serves ready images to anyone and never a pending upload', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const ready = await uploaded(cms, await png(64, 64));
    expect((await getImage(cms, imagePath(ready.id, 'w=320'))).status).toBe(200);
    const bytes = await png(640, 10);
    const pending = await call(cms, 'POST', '/media/upload-url', {
      token: cms.adminToken,
      body: { filename: 'p.png', contentType: 'image/png', size: bytes.length },
    });
    const id = pending.body.data.mediaId;
    await cms.app.request(`/_cms/api/media/${id}/upload`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${cms.adminToken}`, 'content-type': 'image/png' },
      body: new Uint8Array(bytes),
    });
    // Not anonymously, and not for its uploader either: pending files are never served.
    expect((await getImage(cms, imagePath(id, 'w=320'))).status).toBe(404);
    expect((await getImage(cms, imagePath(id, 'w=320'), { authorization: `Bearer ${cms.adminToken}` })).status).toBe(
      404,
    );
  });
});

describeEachDialect('Responsive images: focal point', (dialect) => {
  it('crops around the stored focal point, and around the centre without one', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const item = await uploaded(cms, await quadrants(400, 400), { name: 'q.png' });
    expect(item.focalPoint).toBeNull();
    const crop = async (w: number, h: number) => (await getImage(cms, signed(cms, item.id, { w, h }))).bytes;

    // Centre: a wide crop shows the middle band (all four colours), a tall one too.
    const wide = await crop(200, 50);
    expect(near(await colourAt(wide, 0.25, 0.1), RED)).toBe(true);
    expect(near(await colourAt(wide, 0.25, 0.9), BLUE)).toBe(true);

    const set = async (focalPoint: unknown) =>
      call(cms, 'PUT', `/media/${item.id}`, { token: cms.adminToken, body: { focalPoint } });
    const top = await set({ x: 0.9, y: 0.1 });
    expect(top.status, JSON.stringify(top.body)).toBe(200);
    expect(top.body.data.item.focalPoint).toEqual({ x: 0.9, y: 0.1 });
    // A wide crop near the top: only red and green.
    const band = await crop(200, 50);
    expect(near(await colourAt(band, 0.25, 0.5), RED)).toBe(true);
    expect(near(await colourAt(band, 0.75, 0.5), GREEN)).toBe(true);
    // A tall crop near the right: green above yellow.
    const column = await crop(50, 200);
    expect(near(await colourAt(column, 0.5, 0.25), GREEN)).toBe(true);
    expect(near(await colourAt(column, 0.5, 0.75), YELLOW)).toBe(true);
    // A square crop of a square image is the whole image: the focal point does not matter.
    const whole = await crop(100, 100);
    expect(near(await colourAt(whole, 0.1, 0.9), BLUE)).toBe(true);

    // Bottom left, through the preset (a 200 × 200 crop of the 400 × 400 image is the whole image,
    // so ask a wide signed crop instead).
    await set({ x: 0, y: 1 });
    const bottom = await crop(400, 100);
    expect(near(await colourAt(bottom, 0.25, 0.5), BLUE)).toBe(true);
    expect(near(await colourAt(bottom, 0.75, 0.5), YELLOW)).toBe(true);

    expect((await set(null)).body.data.item.focalPoint).toBeNull();
    for (const bad of [{ x: 1.2, y: 0 }, { x: 0.5 }, { x: '0.5', y: 0.5 }, { x: 0.5, y: 0.5, z: 1 }]) {
      const res = await set(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const pdf = await uploaded(cms, '%PDF-1.4\n%%EOF\n', { name: 'doc.pdf', type: 'application/pdf' });
    const onPdf = await call(cms, 'PUT', `/media/${pdf.id}`, {
      token: cms.adminToken,
      body: { focalPoint: { x: 0.5, y: 0.5 } },
    });
    expect(onPdf.status).toBe(400);
    expect(onPdf.body.error.details.issues[0].path).toEqual(['focalPoint']);
  });

  it('changes the version of crop URLs when the focal point moves, not of width-only URLs', async () => {
    const cms = await mediaCms(dialect, 'file', { config });
    const item = await uploaded(cms, await quadrants(400, 200), { name: 'q.png' });
    const options = { publicUrl: cms.config.publicUrl, signingKey: KEY, presets: config.imagePresets };
    const before = { crop: imageUrl(options, item, { preset: 'thumb' }), width: imageUrl(options, item, { w: 320 }) };
    const updated = (
      await call(cms, 'PUT', `/media/${item.id}`, { token: cms.adminToken, body: { focalPoint: { x: 1, y: 0.5 } } })
    ).body.data.item;
    const after = {
      crop: imageUrl(options, updated, { preset: 'thumb' }),
      width: imageUrl(options, updated, { w: 320 }),
    };
    expect(after.width).toBe(before.width);
    expect(after.crop).not.toBe(before.crop);
    // The old crop URL answers the new crop, revalidated; the new one is cached for a year.
    const stale = await getImage(cms, before.crop);
    expect(stale.headers.get('cache-control')).toBe('public, no-cache');
    const fresh = await getImage(cms, after.crop);
    expect(fresh.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(fresh.headers.get('etag')).toBe(stale.headers.get('etag'));
    expect(near(await colourAt(fresh.bytes, 0.5, 0.25), GREEN)).toBe(true);
  });
});
