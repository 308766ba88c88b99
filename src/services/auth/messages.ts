import type { EmailMessage } from './email.js';

/** The texts of the mails the service sends. Plain text first; the HTML is the same words. */

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function compose(to: string, subject: string, lines: string[], link: string, action: string): EmailMessage {
  const text = `${lines.join('\n\n')}\n\n${link}\n`;
  const paragraphs = lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
${paragraphs}
<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>
<p style="color:#666;font-size:13px">${escapeHtml(link)}</p>
</body></html>`;
  return { to, subject, text, html };
}

export function magicLinkMessage(to: string, site: string, link: string, minutes: number): EmailMessage {
  return compose(
    to,
    `Sign in to ${site}`,
    [
      `Someone (hopefully you) asked to sign in to ${site} with this email address.`,
      `Open the link below and select Continue. It is valid for ${minutes} minutes and works once. If you did not ask for it, ignore this mail.`,
    ],
    link,
    `Sign in to ${site}`,
  );
}

export function recoveryMessage(to: string, site: string, link: string, minutes: number): EmailMessage {
  return compose(
    to,
    `Recover your access to ${site}`,
    [
      `An administrator of ${site} sent you a recovery link.`,
      `Open it, select Continue, then add a new passkey on your account page. The link is valid for ${minutes} minutes and works once.`,
    ],
    link,
    'Recover access',
  );
}

export function inviteMessage(to: string, site: string, link: string, role: string, days: number): EmailMessage {
  return compose(
    to,
    `You are invited to ${site}`,
    [
      `You have been invited to ${site} as ${role}.`,
      `Open the link below to create your account with a passkey. The invitation is valid for ${days} days and works once.`,
    ],
    link,
    'Accept the invitation',
  );
}

export function signupMessage(to: string, site: string, link: string, hours: number): EmailMessage {
  return compose(
    to,
    `Confirm your email for ${site}`,
    [
      `Someone (hopefully you) asked to create an account on ${site} with this email address.`,
      `Open the link below to confirm it and create your account with a passkey. It is valid for ${hours} hours and works once. If you did not ask for it, ignore this mail.`,
    ],
    link,
    'Create my account',
  );
}
