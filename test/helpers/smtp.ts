import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One received message: envelope recipients, raw source and its decoded text. */
export interface ReceivedMail {
  to: string[];
  raw: string;
  /** Quoted-printable soft breaks and escapes undone, so links can be matched. */
  text: string;
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A real SMTP server on an ephemeral port that keeps what it receives. */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  private waiters: Array<{ to: string; resolve: (m: ReceivedMail) => void }> = [];
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            text: decodeQuotedPrintable(raw),
          };
          this.mails.push(mail);
          this.waiters = this.waiters.filter((w) => {
            if (!mail.to.includes(w.to)) return true;
            w.resolve(mail);
            return false;
          });
          callback();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The next mail to `to` (or one already received and not yet taken); the bound is for a busy machine. */
  next(to: string, timeoutMs = 15_000): Promise<ReceivedMail> {
    const idx = this.mails.findIndex((m) => m.to.includes(to));
    if (idx >= 0) return Promise.resolve(this.mails.splice(idx, 1)[0]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        to,
        resolve: (m) => {
          clearTimeout(timer);
          this.mails.splice(this.mails.indexOf(m), 1);
          resolve(m);
        },
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The token of an admin-app link (`/_cms/admin/<page>?token=…`) in a mail. */
export function linkToken(mail: ReceivedMail, page: string): string {
  const m = new RegExp(`/_cms/admin/${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!m) throw new Error(`no ${page} link in the mail:\n${mail.text}`);
  return m[1];
}
