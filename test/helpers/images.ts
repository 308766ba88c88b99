import sharp from 'sharp';
import type { Cms } from '../../src/index.js';

/** The image route of an item, relative to the site (what `app.request` takes). */
export const imagePath = (id: string, query = '') => `/_cms/api/media/${id}/image${query ? `?${query}` : ''}`;

/** GET an image URL (absolute ones are cut to their path) and read the answer whole. */
export async function getImage(cms: Cms, url: string, headers: Record<string, string> = {}) {
  const u = new URL(url, 'http://localhost');
  const res = await cms.app.request(`${u.pathname}${u.search}`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}

/** Format and size of image bytes. */
export async function facts(bytes: Buffer) {
  const m = await sharp(bytes).metadata();
  return { format: m.format, width: m.width, height: m.height, pages: m.pages ?? 1 };
}

export const RED = { r: 255, g: 0, b: 0 };
export const GREEN = { r: 0, g: 255, b: 0 };
export const BLUE = { r: 0, g: 0, b: 255 };
export const YELLOW = { r: 255, g: 255, b: 0 };

/** A PNG in four coloured quadrants: red top left, green top right, blue bottom left, yellow bottom right. */
export function quadrants(width = 400, height = 400): Promise<Buffer> {
  const w = width / 2;
  const h = height / 2;
  const tile = (background: typeof RED) => ({ create: { width: w, height: h, channels: 3 as const, background } });
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite([
      { input: tile(RED), left: 0, top: 0 },
      { input: tile(GREEN), left: w, top: 0 },
      { input: tile(BLUE), left: 0, top: h },
      { input: tile(YELLOW), left: w, top: h },
    ])
    .png()
    .toBuffer();
}

/** The colour at a point of an image (x, y as fractions of its size). */
export async function colourAt(bytes: Buffer, x: number, y: number) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const px = Math.min(info.width - 1, Math.floor(x * info.width));
  const py = Math.min(info.height - 1, Math.floor(y * info.height));
  const i = (py * info.width + px) * info.channels;
  return { r: data[i], g: data[i + 1], b: data[i + 2] };
}

/** Close to a colour (lossy formats move values a little). */
export function near(actual: { r: number; g: number; b: number }, expected: { r: number; g: number; b: number }) {
  return (
    Math.abs(actual.r - expected.r) < 40 && Math.abs(actual.g - expected.g) < 40 && Math.abs(actual.b - expected.b) < 40
  );
}

/** A photo-like JPEG (noise, so sizes depend on quality). */
export async function photo(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = (seed >> 16) & 0xff;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(1.5)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A two-frame animated GIF (red, then blue). */
export async function animatedGif(width = 30, height = 20): Promise<Buffer> {
  const frame = (background: typeof RED) =>
    sharp({ create: { width, height, channels: 4, background: { ...background, alpha: 1 } } })
      .png()
      .toBuffer();
  return sharp([await frame(RED), await frame(BLUE)], { join: { animated: true } })
    .gif()
    .toBuffer();
}
