/**
 * Where messages go: an SMTP server (SVC_SMTP_URL) or, without one, `.eml` files under `<data-dir>/mail/` so the
 * embedded quick start works with no mail server at all.
 *
 * SMTP is never plain text over the network: `smtps://` is implicit TLS, and `smtp://` requires STARTTLS (a server
 * that does not offer it is refused). Certificates are always verified, against SVC_SMTP_CA_FILE when set.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { Logger } from '../core/log.js';

/** One message ready to send. */
export interface OutgoingMail {
  /** The outbox record's id (names the .eml file, and is logged). */
  id: string;
  template: string;
  from: string;
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
}

/** An SMTP answer or a connection failure. `code` is the SMTP reply code when the server answered. */
export class MailSendError extends Error {
  override name = 'MailSendError';
  constructor(
    message: string,
    readonly code: number | undefined,
    /** The SMTP command answered (MAIL FROM, RCPT TO, DATA, AUTH...), when known. */
    readonly command?: string | undefined,
  ) {
    super(message);
  }
  /**
   * A 5xx reply to the message itself (sender, recipient or content): refused for good. A 5xx to the session
   * (STARTTLS, AUTH: a server or credentials to fix) is retried like a 4xx, a connection or a TLS error, so mail
   * queued while the configuration is wrong is sent once it is fixed, within the retry schedule.
   */
  get permanent(): boolean {
    const sessionLevel = this.command !== undefined && !/^(MAIL|RCPT|DATA)/i.test(this.command);
    return this.code !== undefined && this.code >= 500 && this.code < 600 && !sessionLevel;
  }
}

export interface MailTransport {
  readonly kind: 'smtp' | 'eml';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface TransportOptions {
  smtpUrl: string | undefined;
  /** PEM text of the CAs the server's certificate must chain to. */
  ca?: string | undefined;
  dataDir: string;
  log?: Logger | undefined;
  /** Socket timeouts (ms); tests shorten them. */
  timeoutMs?: number | undefined;
}

/**
 * nodemailer, loaded with the first message rather than at start: a service that sends no mail for a while (and
 * every `svc mcp`) does not wait for it.
 */
let nodemailer: Promise<typeof import('nodemailer')> | undefined;

/** A transporter with these options, made once nodemailer is loaded. */
function transporter(options: Parameters<typeof import('nodemailer').createTransport>[0]): Promise<Transporter> {
  nodemailer ??= import('nodemailer');
  return nodemailer.then((m) => m.default.createTransport(options));
}

/** SMTP when a URL is given, else .eml files in `<dataDir>/mail/`. */
export function openTransportSync(opts: TransportOptions): MailTransport {
  if (opts.smtpUrl) return new SmtpTransport(opts.smtpUrl, opts.ca, opts.timeoutMs ?? 30_000);
  return new EmlTransport(path.join(opts.dataDir, 'mail'), opts.log);
}

function message(mail: OutgoingMail): SendMailOptions {
  return {
    from: mail.from,
    to: { name: mail.to.name, address: mail.to.address },
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    headers: mail.headers,
  };
}

class SmtpTransport implements MailTransport {
  readonly kind = 'smtp';
  readonly #options: Parameters<typeof import('nodemailer').createTransport>[0];
  #transporter: Promise<Transporter> | undefined;

  constructor(smtpUrl: string, ca: string | undefined, timeoutMs: number) {
    const url = new URL(smtpUrl);
    const secure = url.protocol === 'smtps:';
    const user = decodeURIComponent(url.username);
    this.#options = {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      // Without implicit TLS, the session must be upgraded with STARTTLS before anything is sent.
      requireTLS: !secure,
      auth: user ? { user, pass: decodeURIComponent(url.password) } : undefined,
      tls: { ca, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    };
  }

  async send(mail: OutgoingMail): Promise<void> {
    this.#transporter ??= transporter(this.#options);
    const smtp = await this.#transporter;
    try {
      await smtp.sendMail(message(mail));
    } catch (err) {
      const e = err as {
        responseCode?: unknown;
        response?: unknown;
        code?: unknown;
        message?: unknown;
        command?: unknown;
      };
      const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
      // The server's reply when there is one (it names the reason), else the error code and message; never the body.
      const text = typeof e.response === 'string' ? e.response : `${String(e.code ?? 'ERROR')}: ${String(e.message)}`;
      throw new MailSendError(text.slice(0, 500), code, typeof e.command === 'string' ? e.command : undefined);
    }
  }

  close(): void {
    void this.#transporter?.then((t) => t.close());
  }
}

/** Writes each message as `<dir>/<id>.eml` (0600), whole or not at all (temp file + rename). */
class EmlTransport implements MailTransport {
  readonly kind = 'eml';
  #builder: Promise<Transporter> | undefined;

  constructor(
    readonly dir: string,
    readonly log: Logger | undefined,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    this.#builder ??= transporter({ streamTransport: true, buffer: true, newline: 'unix' });
    const info = (await (await this.#builder).sendMail(message(mail))) as { message: Buffer };
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${mail.id}.eml`);
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, info.message, { mode: 0o600 });
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw new MailSendError(`writing ${path.basename(file)} failed: ${(err as Error).message}`, undefined);
    }
    // One line per message; never the address or the body.
    this.log?.info({ mailId: mail.id, template: mail.template }, 'mail written as an .eml file (no SMTP configured)');
  }

  close(): void {}
}
