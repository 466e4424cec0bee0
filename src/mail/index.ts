/**
 * The mail domain's entry points: the sender built from the configuration, the unsubscribe secret, and the
 * preferences other domains may read before queueing non-essential mail.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { RateLimiter } from '../core/limiter-port.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/port.js';
import { MailSender } from './sender.js';
import { openTransportSync } from './transport.js';

export {
  isOptedOut,
  optOut,
  optOutsOf,
  setOptOuts,
  OPTIONAL_TEMPLATES,
  verifyUnsubscribe,
  MAIL_PREFERENCES,
} from './preferences.js';
export { MailSender } from './sender.js';

/** The unsubscribe route, under the REST API (GET shows a confirmation page, POST unsubscribes). */
export const UNSUBSCRIBE_PATH = '/api/v1/mail/unsubscribe';

/** The server's own record (not account data) holding the key that signs unsubscribe links. */
const SYSTEM = 'system';
const SECRET_ID = 'mail';

const secrets = new WeakMap<Store, Promise<string>>();

/** The secret that signs unsubscribe tokens, created on first use and kept in the store, so links survive restarts. */
export function mailSecret(store: Store): Promise<string> {
  let p = secrets.get(store);
  if (!p) {
    p = store.transact(async (tx) => {
      const existing = await tx.get<{ id: string; unsubscribeSecret?: string }>(SYSTEM, SECRET_ID);
      if (existing?.unsubscribeSecret) return existing.unsubscribeSecret;
      const secret = randomBytes(32).toString('base64url');
      await tx.put(SYSTEM, { id: SECRET_ID, unsubscribeSecret: secret });
      return secret;
    });
    p.catch(() => secrets.delete(store));
    secrets.set(store, p);
  }
  return p;
}

export interface MailSenderDeps {
  config: Config;
  store: Store;
  clock: Clock;
  limiter: RateLimiter;
  log?: Logger | undefined;
}

/** Builds and starts the sender the configuration selects (SMTP, or .eml files without SVC_SMTP_URL). */
export async function startMailSender(deps: MailSenderDeps): Promise<MailSender> {
  const { config } = deps;
  const mail = config.mail ?? { smtpUrl: undefined, from: 'svc <no-reply@localhost>', caFile: undefined };
  const ca = mail.caFile ? readFileSync(mail.caFile, 'utf8') : undefined;
  const transport = openTransportSync({ smtpUrl: mail.smtpUrl, ca, dataDir: config.dataDir, log: deps.log });
  const base = config.publicUrl ?? `http://${config.host}:${config.port}`;
  const sender = new MailSender({
    store: deps.store,
    clock: deps.clock,
    limiter: deps.limiter,
    log: deps.log,
    transport,
    from: mail.from,
    secret: await mailSecret(deps.store),
    unsubscribeUrl: new URL(UNSUBSCRIBE_PATH, base).toString(),
    linkBase: base,
  });
  sender.start();
  if (transport.kind === 'eml')
    deps.log?.info({ dir: `${config.dataDir}/mail` }, 'no SMTP server configured: mail is written as .eml files');
  return sender;
}
