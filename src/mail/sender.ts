/**
 * The mail sender: turns queued `mail` records (src/events/mail.ts) into delivered messages, at least once.
 *
 * Life of a message:
 *   pending --claim--> sending --outcome--> sent | pending (retry later) | failed | suppressed
 *
 * - Claim: one store transaction marks a batch of due messages `sending` with a lease (this sender's id and an
 *   expiry) and counts the attempt. Only then is anything sent, so an attempt is never lost from the record.
 * - Outcome: written in its own transaction, only while the record is still under this sender's lease. Sent and
 *   failed-for-good messages lose their `data` (it may hold a single-use link).
 * - Recovery: a message left `sending` by a process that died (SIGKILL, crash) is claimed again once its lease has
 *   expired. That is the only way a message can be sent twice: only messages in flight at the crash can be.
 * - Retries: an SMTP 4xx reply, a connection or TLS error is retried after 1, 5, 15, 60 and 180 minutes, then the
 *   message is failed. A 5xx reply fails it at once. The reply is kept in `lastError` (never the body).
 * - Preferences: non-essential mail to a user who opted out is `suppressed`, not sent.
 * - Limits (the rate limiter port, per recipient address and per account, over the limiter's window): essential mail
 *   over a limit waits until the window ends; non-essential mail over a limit is suppressed. The reason is recorded.
 *
 * The sender is woken by `onMailQueued` and scans the outbox periodically (retries, leases, messages queued by
 * another instance). Tests drive it with `tick()` / `drain()`.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { inTurns } from '../core/turns.js';
import { headerText } from '../core/names.js';
import { counterIdOf, type RateLimiter, type RateState } from '../core/limiter-port.js';
import type { Logger } from '../core/log.js';
import { MAIL, onMailQueued, type MailRecord } from '../events/mail.js';
import { isClaimable, type ClaimableStore, type Store, type Tx } from '../store/port.js';
import { isOptedOut, signUnsubscribe } from './preferences.js';
import { MailRenderError, renderMail } from './templates/index.js';
import { MailSendError, type MailTransport, type OutgoingMail } from './transport.js';

/** Waits before the 2nd, 3rd... attempt; after the last one fails, the message is failed for good. */
export const RETRY_DELAYS_MS = [1, 5, 15, 60, 180].map((m) => m * 60_000);

export interface MailSenderOptions {
  store: Store;
  clock: Clock;
  transport: MailTransport;
  limiter: RateLimiter;
  /** The From header. */
  from: string;
  /** Signs unsubscribe tokens. */
  secret: string;
  /** Absolute URL of the unsubscribe route; the token is added as `?token=`. */
  unsubscribeUrl: string;
  /**
   * The service's public base URL. A link field of a message (`link`, `claimLink`, `checkInLink`...) queued as a path
   * (`/api/...`) is made absolute with it, so code that queues mail outside a request need not know the public URL.
   * Default: the origin of `unsubscribeUrl`.
   */
  linkBase?: string;
  log?: Logger | undefined;
  /** How long a claim holds a message before another sender may take it again (default 5 minutes). */
  leaseMs?: number;
  /** How often the outbox is scanned without a wake-up (default 30 s). */
  scanMs?: number;
  /** Messages on the wire at once (default 4). */
  concurrency?: number;
  /** Messages per recipient address in one limiter window (default 10). */
  perRecipient?: number;
  /** Messages per account in one limiter window (default 100). */
  perAccount?: number;
}

type Outcome =
  | { kind: 'sent' }
  | { kind: 'retry' | 'failed'; error: string }
  | { kind: 'suppressed'; reason: string }
  | { kind: 'delayed'; until: number; reason: string };

/**
 * A mail server's reply as it is logged: a refusal usually names the recipient (`550 5.1.1 <ana@example.com>: ...`),
 * an heir's or a user's address that logs never hold. The outbox record keeps the reply whole.
 */
function withoutAddresses(reply: string): string {
  return reply.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]');
}

export interface MailSenderStats {
  attempts: number;
  sent: number;
  failed: number;
  retried: number;
  suppressed: number;
  delayed: number;
}

export class MailSender {
  readonly id = `msn_${randomBytes(8).toString('hex')}`;
  readonly #o: Required<Omit<MailSenderOptions, 'log'>> & { log: Logger | undefined };
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #running: Promise<number> | undefined;
  #again = false;
  #stopped = false;
  /** The account of the last message this sender claimed: the next claim starts with the account after it. */
  #lastOwner: string | undefined;
  readonly stats: MailSenderStats = { attempts: 0, sent: 0, failed: 0, retried: 0, suppressed: 0, delayed: 0 };

  constructor(opts: MailSenderOptions) {
    this.#o = {
      leaseMs: 5 * 60_000,
      scanMs: 30_000,
      concurrency: 4,
      perRecipient: 10,
      perAccount: 100,
      linkBase: new URL(opts.unsubscribeUrl).origin,
      ...opts,
      log: opts.log,
    };
  }

  get transportKind(): 'smtp' | 'eml' {
    return this.#o.transport.kind;
  }

  /** Follows new messages and scans periodically; the first scan runs at once (messages left by an earlier run). */
  start(): void {
    if (this.#timer) return;
    this.#stopped = false;
    this.#unsubscribe = onMailQueued(() => setImmediate(() => this.#wake()));
    this.#timer = setInterval(() => this.#wake(), this.#o.scanMs);
    this.#timer.unref();
    this.#wake();
  }

  /** Stops taking messages and waits for the ones on the wire to be recorded. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => 0);
    this.#o.transport.close();
  }

  /** Sends until nothing is due now; resolves with the number of messages handled. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.tick();
      total += n;
      if (n === 0) return total;
    }
  }

  /** One round: claims a batch of due messages, sends them and records the outcomes. */
  tick(): Promise<number> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    const run = this.#round().finally(() => {
      this.#running = undefined;
    });
    this.#running = run;
    return run;
  }

  #wake(): void {
    if (this.#stopped) return;
    this.tick()
      .then((n) => {
        if ((n > 0 || this.#again) && !this.#stopped) {
          this.#again = false;
          this.#wake();
        }
      })
      .catch((err: unknown) => this.#o.log?.error({ err: String(err) }, 'the mail sender failed a round; retrying'));
  }

  async #round(): Promise<number> {
    const now = this.#o.clock.now();
    const batch = this.#o.concurrency * 4;
    const store = this.#o.store;
    const jobs = isClaimable(store)
      ? await this.#claimShared(store, now.getTime(), batch)
      : await store.transact((tx) => this.#claim(tx, now.getTime(), batch));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < jobs.length && !this.#stopped) {
        const job = jobs[next++]!;
        const outcome = await this.#attempt(job);
        await this.#record(job, outcome);
      }
    };
    await Promise.all(Array.from({ length: this.#o.concurrency }, worker));
    return jobs.length;
  }

  /**
   * A store several instances share (PostgreSQL): row claims that skip what another sender holds, instead of reading
   * the whole outbox in a serializable transaction. Messages whose sender died (lease over) first, then the due ones,
   * accounts in turn, each account's oldest first (a claim in turns of the store port).
   */
  async #claimShared(store: ClaimableStore, nowMs: number, limit: number): Promise<MailRecord[]> {
    const take = (tx: Tx, records: MailRecord[]) => this.#take(tx, records, nowMs);
    const stale = await store.claimWith<MailRecord, MailRecord[]>(
      MAIL,
      { field: 'state', value: 'sending', dueField: 'leaseUntil', dueBefore: nowMs, limit },
      take,
    );
    if (stale.length >= limit) return stale;
    const due = await store.claimWith<MailRecord, MailRecord[]>(
      MAIL,
      {
        field: 'state',
        value: 'pending',
        dueField: 'nextAttemptAt',
        dueBefore: nowMs,
        limit: limit - stale.length,
        // Within an account, its messages by id: time-ordered, so oldest first.
        turns: { by: ['ownerId', 'id'], after: this.#lastOwner },
      },
      async (tx, records, reach) => {
        // Where the next claim starts: after the account served last, or the last one a short claim looked at.
        if (typeof reach.after === 'string') this.#lastOwner = reach.after;
        return take(tx, records);
      },
    );
    return [...stale, ...due];
  }

  /** Marks due messages `sending` under this sender's lease (one store, one process). */
  async #claim(tx: Tx, nowMs: number, limit: number): Promise<MailRecord[]> {
    const pending = await tx.findBy<MailRecord>(MAIL, 'state', 'pending');
    const stale = await tx.findBy<MailRecord>(MAIL, 'state', 'sending');
    // Accounts in turn, starting after the one served last: one account's hundred heir invitations do not stand in
    // front of another account's password reset.
    const due = inTurns(
      [
        ...stale.filter((m) => typeof m.leaseUntil !== 'number' || m.leaseUntil <= nowMs),
        ...pending.filter((m) => m.nextAttemptAt <= nowMs),
      ],
      (m) => m.ownerId,
      this.#lastOwner,
    ).slice(0, limit);
    const taken = await this.#take(tx, due, nowMs);
    if (taken.length > 0) this.#lastOwner = taken.at(-1)!.ownerId;
    return taken;
  }

  /** Marks the given messages `sending` under this sender's lease; suppresses those the recipient opted out of. */
  async #take(tx: Tx, due: MailRecord[], nowMs: number): Promise<MailRecord[]> {
    const at = new Date(nowMs).toISOString();
    const jobs: MailRecord[] = [];
    for (const m of due) {
      if (!m.essential && m.userId && (await isOptedOut(tx, m.userId, m.template))) {
        await tx.put(MAIL, { ...m, ...final('suppressed', 'the recipient opted out of this message', at) });
        this.stats.suppressed++;
        continue;
      }
      const claimed: MailRecord = {
        ...m,
        state: 'sending',
        attempts: m.attempts + 1,
        leaseOwner: this.id,
        leaseUntil: nowMs + this.#o.leaseMs,
        updatedAt: at,
      };
      await tx.put(MAIL, claimed);
      jobs.push(claimed);
    }
    return jobs;
  }

  async #attempt(job: MailRecord): Promise<Outcome> {
    const limited = await this.#checkLimits(job);
    if (limited) return limited;
    let mail: OutgoingMail;
    try {
      mail = this.#build(job);
    } catch (err) {
      if (err instanceof MailRenderError) return { kind: 'failed', error: `not rendered: ${err.message}` };
      throw err;
    }
    this.stats.attempts++;
    try {
      await this.#o.transport.send(mail);
      return { kind: 'sent' };
    } catch (err) {
      const e = err instanceof MailSendError ? err : new MailSendError(String(err), undefined);
      if (e.permanent || job.attempts > RETRY_DELAYS_MS.length) return { kind: 'failed', error: e.message };
      return { kind: 'retry', error: e.message };
    }
  }

  /** Counts the message against the recipient's and the account's limits (all or nothing). */
  async #checkLimits(job: MailRecord): Promise<Outcome | undefined> {
    const now = this.#o.clock.now();
    let states: RateState[];
    try {
      states = await this.#o.limiter.hitAll(
        [
          { key: `mail:to:${counterIdOf(job.to.toLowerCase())}`, limit: this.#o.perRecipient },
          { key: `mail:account:${job.ownerId}`, limit: this.#o.perAccount },
        ],
        now,
      );
    } catch (err) {
      // The limiter's engine is down: wait a minute rather than send unlimited mail.
      return { kind: 'delayed', until: now.getTime() + 60_000, reason: `rate limiter unavailable: ${String(err)}` };
    }
    if (states.every((s) => s.allowed)) return undefined;
    // All or nothing: when one counter is exhausted every state says not allowed; the exhausted one has none left.
    const i = Math.max(
      0,
      states.findIndex((s) => s.remaining === 0),
    );
    const over = states[i]!;
    const which = i === 0 ? 'recipient' : 'account';
    const reason = `over the ${which} limit of ${over.limit} messages per window`;
    if (!job.essential) return { kind: 'suppressed', reason };
    const until = Math.max(...states.filter((s) => !s.allowed).map((s) => s.resetAt.getTime()));
    return { kind: 'delayed', until, reason };
  }

  #build(job: MailRecord): OutgoingMail {
    if (!job.data) throw new MailRenderError('the message has no data left');
    const headers: Record<string, string> = { 'Auto-Submitted': 'auto-generated' };
    let unsubscribe: string | undefined;
    if (!job.essential && job.userId) {
      const token = signUnsubscribe(this.#o.secret, {
        ownerId: job.ownerId,
        userId: job.userId,
        template: job.template,
      });
      const url = new URL(this.#o.unsubscribeUrl);
      url.searchParams.set('token', token);
      unsubscribe = url.toString();
      headers['List-Unsubscribe'] = `<${unsubscribe}>`;
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    }
    const rendered = renderMail(job.template, job.locale, absoluteLinks(job.data, this.#o.linkBase), unsubscribe);
    return {
      id: job.id,
      template: job.template,
      from: this.#o.from,
      // Names are checked where they are entered; a header is cleaned again here, for names stored before that check.
      to: { name: headerText(job.toName ?? ''), address: job.to },
      ...rendered,
      subject: headerText(rendered.subject),
      messageId: `<${job.id}@${domainOf(this.#o.from)}>`,
      headers,
    };
  }

  /** Writes the outcome, only if the message is still under this sender's lease. */
  async #record(job: MailRecord, outcome: Outcome): Promise<void> {
    const now = this.#o.clock.now();
    const at = now.toISOString();
    await this.#o.store.transact(async (tx) => {
      const cur = await tx.get<MailRecord>(MAIL, job.id);
      if (cur?.state !== 'sending' || cur.leaseOwner !== this.id) return;
      await tx.put(MAIL, { ...cur, ...this.#fields(cur, outcome, now.getTime(), at) });
    });
    this.#count(outcome);
    if (outcome.kind === 'failed')
      this.#o.log?.warn(
        { mailId: job.id, template: job.template, error: withoutAddresses(outcome.error) },
        'mail failed for good',
      );
  }

  #fields(cur: MailRecord, outcome: Outcome, nowMs: number, at: string): Partial<MailRecord> {
    const unleased = { leaseOwner: null, leaseUntil: null, updatedAt: at };
    switch (outcome.kind) {
      case 'sent':
        return { ...unleased, state: 'sent', data: null, sentAt: at, lastError: null };
      case 'failed':
        return { ...final('failed', outcome.error, at), ...unleased };
      case 'suppressed':
        return { ...final('suppressed', outcome.reason, at), ...unleased, attempts: cur.attempts - 1 };
      case 'retry': {
        const delay = RETRY_DELAYS_MS[Math.min(cur.attempts, RETRY_DELAYS_MS.length) - 1]!;
        return { ...unleased, state: 'pending', nextAttemptAt: nowMs + delay, lastError: outcome.error };
      }
      case 'delayed':
        // Not an attempt: nothing was sent.
        return {
          ...unleased,
          state: 'pending',
          attempts: cur.attempts - 1,
          nextAttemptAt: outcome.until,
          lastError: `delayed: ${outcome.reason}`,
        };
    }
  }

  #count(outcome: Outcome): void {
    if (outcome.kind === 'sent') this.stats.sent++;
    else if (outcome.kind === 'failed') this.stats.failed++;
    else if (outcome.kind === 'retry') this.stats.retried++;
    else if (outcome.kind === 'suppressed') this.stats.suppressed++;
    else this.stats.delayed++;
  }
}

/** A message that will not be sent: its data (which may hold a single-use link) is dropped. */
function final(state: 'failed' | 'suppressed', reason: string, at: string): Partial<MailRecord> {
  return { state, data: null, lastError: reason, updatedAt: at };
}

/** Link fields queued as a path (one leading slash) made absolute against the service's base URL. */
function absoluteLinks(data: Record<string, string>, base: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data))
    out[key] =
      /link$/i.test(key) && typeof value === 'string' && /^\/(?!\/)/.test(value)
        ? `${base.replace(/\/+$/, '')}${value}`
        : value;
  return out;
}

function domainOf(from: string): string {
  const m = /@([^>\s]+)>?\s*$/.exec(from);
  return m?.[1] ?? 'localhost';
}
