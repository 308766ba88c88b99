import type { Transporter } from 'nodemailer';
import type { EmailConfig } from '../../core/config-email.js';
import type { Logger } from '../../core/log.js';
import { isUndeliverable } from './no-address.js';

/** One outgoing message. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes. Implementations: SMTP (production) and the log (development). */
export interface EmailProvider {
  readonly name: 'smtp' | 'log';
  send(message: EmailMessage): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer: `smtp://host:587` (STARTTLS when offered) or `smtps://host:465`, credentials in the URL. */
export function smtpProvider(url: string, from: string): EmailProvider {
  // nodemailer is loaded with the first message, not at start-up.
  let transport: Promise<Transporter> | null = null;
  let opened: Transporter | null = null;
  const open = () =>
    (transport ??= import('nodemailer').then((m) => {
      opened = m.default.createTransport(url);
      return opened;
    }));
  return {
    name: 'smtp',
    async send(message) {
      await (await open()).sendMail({ from, ...message });
    },
    close: () => opened?.close(),
  };
}

/** Development provider: the whole message is written to the log (links included), nothing is sent. */
export function logProvider(log: Logger, from: string): EmailProvider {
  return {
    name: 'log',
    async send(message) {
      log.info(
        { email: { from, to: message.to, subject: message.subject, text: message.text } },
        'email (log provider)',
      );
    },
    close: () => {},
  };
}

/**
 * The configured provider, or null when email is not configured. A message to an address that can
 * never receive mail (under `.invalid`, such as the reserved address of an account made from a
 * DID) is refused before it reaches the provider.
 */
export function createEmailProvider(config: EmailConfig | null, log: Logger): EmailProvider | null {
  if (!config) return null;
  const provider = config.provider === 'smtp' ? smtpProvider(config.url, config.from) : logProvider(log, config.from);
  return {
    name: provider.name,
    async send(message) {
      if (isUndeliverable(message.to))
        throw new Error(`${message.to} cannot receive mail (a reserved .invalid address)`);
      await provider.send(message);
    },
    close: () => provider.close(),
  };
}
