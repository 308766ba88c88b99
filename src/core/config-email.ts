import { z } from 'zod';

/**
 * The `email` configuration option: which provider sends magic links, invites
 * and sign-up verification mails. Absent means email is not configured.
 *   file: { "email": { "provider": "smtp", "url": "smtps://user:pass@host:465", "from": "CMS <cms@example.com>" } }
 *         { "email": { "provider": "log" } }   (development: messages go to the log)
 *   env:  CMS_SMTP_URL (selects smtp), CMS_EMAIL_PROVIDER (smtp | log), CMS_EMAIL_FROM
 */
export const emailSchema = z.discriminatedUnion('provider', [
  z
    .object({
      provider: z.literal('smtp'),
      url: z.string().regex(/^smtps?:\/\/[^/]/, 'must be an smtp:// or smtps:// URL'),
      from: z.string().min(3).optional(),
    })
    .strict(),
  z.object({ provider: z.literal('log'), from: z.string().min(3).optional() }).strict(),
]);

export type EmailConfig = { provider: 'smtp'; url: string; from: string } | { provider: 'log'; from: string };

/** Complete a parsed email option: the sender defaults to no-reply@<public host>. */
export function resolveEmail(input: z.output<typeof emailSchema> | undefined, publicUrl: string): EmailConfig | null {
  if (!input) return null;
  const host = new URL(publicUrl).hostname;
  const from = input.from ?? `CMS <no-reply@${/^[\d.]+$|:|^\[/.test(host) ? 'localhost' : host}>`;
  return input.provider === 'smtp' ? { provider: 'smtp', url: input.url, from } : { provider: 'log', from };
}

/** The email option as the environment sets it, merged over the file's; null when no variable is set. */
export function emailFromEnv(
  env: NodeJS.ProcessEnv,
  fromFile: unknown,
): { value: Record<string, unknown>; source: string } | null {
  const url = env.CMS_SMTP_URL || undefined;
  const provider = env.CMS_EMAIL_PROVIDER || undefined;
  const from = env.CMS_EMAIL_FROM || undefined;
  if (!url && !provider && !from) return null;
  const value: Record<string, unknown> =
    typeof fromFile === 'object' && fromFile !== null ? { ...(fromFile as Record<string, unknown>) } : {};
  if (url) {
    value.url = url;
    value.provider = 'smtp';
  }
  if (provider) value.provider = provider;
  if (from) value.from = from;
  const source = url ? 'CMS_SMTP_URL' : provider ? 'CMS_EMAIL_PROVIDER' : 'CMS_EMAIL_FROM';
  return { value, source };
}
