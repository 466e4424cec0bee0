/**
 * Signing secrets at rest, for webhook subscriptions and for the other records
 * shaped like them (the embed secrets of src/embed/secrets.ts).
 *
 * Sealed: `secret` and `previousSecret` are stored sealed under the master key
 * (src/core/keyring.ts, AES-256-GCM; the AAD is `<collection>/<record id>`, so
 * a value can move from `secret` to `previousSecret` at a rotation without
 * being re-sealed, but not onto another record). They are opened only to sign
 * a delivery, in memory. Values written in plaintext by an earlier version are
 * sealed at start (src/store/master-key.ts) and still sign until then.
 *
 * Erased: the predecessor of a rotated secret (kept by a rotation with
 * `graceSeconds`, still signing during the grace) is erased from the stored
 * record once its grace has ended, by `SecretSweeper`, a timer set for the
 * earliest grace end (and at least every minute), so it goes even when nothing
 * reads the record. Writes of a subscription (update, the dispatcher's claim)
 * also drop it on the way.
 */
import type { Clock } from '../core/clock.js';
import { declareSealedFields, recordAad, type Keyring } from '../core/keyring.js';
import type { Logger } from '../core/log.js';
import { NotIndexedError, type Store, type Tx } from '../store/port.js';
import { WEBHOOKS } from '../events/events.js';

/** The signing secrets of a record (a subscription, or a callback target's secret record). */
export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  /**
   * True while the record holds a predecessor secret (indexed: the sweep reads these records only). Absent on
   * records rotated before it existed: the first sweep of a process reads every record and marks them.
   */
  inGrace?: boolean;
}

/** The indexed field of every signing-secret collection (added to its indexes by the collection's owner). */
export const IN_GRACE = 'inGrace';

/** The stored fields that hold signing secrets, sealed. */
export const SIGNING_SECRET_FIELDS = ['secret', 'previousSecret'];

/** Collections whose records hold signing secrets: sealed at rest and swept of expired predecessors. */
const SIGNING_COLLECTIONS = new Set<string>();

/** Declares a collection of records carrying SigningSecrets. */
export function declareSigningSecrets(collection: string): void {
  SIGNING_COLLECTIONS.add(collection);
  declareSealedFields(collection, SIGNING_SECRET_FIELDS);
}
declareSigningSecrets(WEBHOOKS);

/** A new secret sealed for the record `collection/id`. */
export function sealSecret(keyring: Keyring, collection: string, id: string, plaintext: string): string {
  return keyring.seal(plaintext, recordAad(collection, id));
}

/**
 * Signing secrets opened lately, for a caller that opens the same ones again and again (the dispatcher, at every
 * claim: an AES-GCM open costs more than the rest of a small claim). Keyed by the record and the sealed value, so a
 * rotated or re-sealed secret is opened afresh. Plaintext in memory only, like the signing keys of ./signature.ts.
 */
export class OpenedSecrets {
  static readonly SIZE = 256;
  readonly #values = new Map<string, string>();

  reveal(keyring: Keyring, sealed: string, aad: string): string {
    const key = `${aad}\n${sealed}`;
    let value = this.#values.get(key);
    if (value === undefined) {
      value = keyring.reveal(sealed, aad);
      if (this.#values.size >= OpenedSecrets.SIZE) this.#values.clear();
      this.#values.set(key, value);
    }
    return value;
  }
}

/**
 * A copy of the record's signing secrets in plaintext, for signing in memory only (never to be stored); `opened`
 * keeps the values opened, for the next call.
 */
export function openSecrets(
  keyring: Keyring,
  collection: string,
  r: SigningSecrets & { id: string },
  opened?: OpenedSecrets,
): SigningSecrets {
  const aad = recordAad(collection, r.id);
  const reveal = (sealed: string) => (opened ? opened.reveal(keyring, sealed, aad) : keyring.reveal(sealed, aad));
  return {
    secret: reveal(r.secret),
    previousSecret: r.previousSecret ? reveal(r.previousSecret) : null,
    previousSecretExpiresAt: r.previousSecretExpiresAt,
  };
}

/** Whether the record still holds a predecessor secret whose grace has ended at `nowMs`. */
export function hasExpiredSecret(r: SigningSecrets, nowMs: number): boolean {
  return (
    r.previousSecret !== null &&
    r.previousSecret !== undefined &&
    (r.previousSecretExpiresAt === null || r.previousSecretExpiresAt <= nowMs)
  );
}

/** Erases an expired predecessor secret from the record, in place; true when it changed the record. */
export function dropExpiredSecret(r: SigningSecrets, nowMs: number): boolean {
  if (!hasExpiredSecret(r, nowMs)) return false;
  r.previousSecret = null;
  r.previousSecretExpiresAt = null;
  r.inGrace = false;
  return true;
}

type SecretsRecord = SigningSecrets & { id: string; [field: string]: unknown };

/** The records of `collection` marked as holding a predecessor secret. */
async function* inGrace(tx: Tx, collection: string): AsyncIterable<SecretsRecord> {
  let ids: string[];
  try {
    ids = await tx.idsBy(collection, IN_GRACE, true);
  } catch (err) {
    // A store opened without this collection's indexes (a unit test of another part): every record, as before.
    // Any other failure is the store's, and the sweep's caller hears of it.
    if (!(err instanceof NotIndexedError)) throw err;
    yield* tx.scan<SecretsRecord>(collection);
    return;
  }
  for (const id of ids) {
    const r = await tx.get<SecretsRecord>(collection, id);
    if (r) yield r;
  }
}

/**
 * Within a transaction: erases every expired predecessor secret of every signing-secret collection; returns how
 * many records changed and the earliest grace end still ahead (unix ms, or null). It reads the records marked
 * `inGrace` (a few: those rotated within their grace), or with `every` every record, marking those rotated before
 * the mark existed: reading every subscription of every account at each sweep (every minute, on every instance)
 * grew with the number of subscriptions, and on PostgreSQL made each sweep conflict with their writes.
 */
export async function sweepSecretsTx(
  tx: Tx,
  nowMs: number,
  opts: { every?: boolean } = {},
): Promise<{ erased: number; nextExpiry: number | null }> {
  let erased = 0;
  let nextExpiry: number | null = null;
  for (const collection of SIGNING_COLLECTIONS) {
    const records = opts.every ? tx.scan<SecretsRecord>(collection) : inGrace(tx, collection);
    for await (const r of records) {
      if (dropExpiredSecret(r, nowMs)) {
        await tx.put(collection, r); // reads hand out copies: changing one changes nothing until put
        erased++;
      } else if (r.previousSecret && r.previousSecretExpiresAt !== null) {
        if (r.inGrace !== true) await tx.put(collection, { ...r, inGrace: true });
        if (nextExpiry === null || r.previousSecretExpiresAt < nextExpiry) nextExpiry = r.previousSecretExpiresAt;
      } else if (r.inGrace === true) {
        await tx.put(collection, { ...r, inGrace: false });
      }
    }
  }
  return { erased, nextExpiry };
}

/** Within a transaction: erases every expired predecessor secret; returns how many records changed. */
export async function eraseExpiredSecretsTx(tx: Tx, nowMs: number, opts: { every?: boolean } = {}): Promise<number> {
  return (await sweepSecretsTx(tx, nowMs, opts)).erased;
}

/**
 * The sweep: one transaction over the signing-secret collections. When it erased anything, the store is compacted
 * before it resolves, so the erased values are in none of the store's files (the lowdb journal included).
 */
export async function eraseExpiredSecrets(
  store: Store,
  nowMs: number,
  opts: { every?: boolean } = {},
): Promise<number> {
  const erased = await store.transact((tx) => eraseExpiredSecretsTx(tx, nowMs, opts));
  if (erased > 0) await store.compactNow();
  return erased;
}

/** Timer functions (the dispatcher's Scheduler satisfies it). */
export interface SweepScheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const unrefScheduler: SweepScheduler = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Erases rotated secrets when their grace ends, without waiting for anything to read them: sweeps at start, then at
 * the earliest grace end it saw, and at least every `everyMs` (default 60 s; a rotation made meanwhile is caught by
 * that bound). With several instances each one sweeps; the sweep is idempotent.
 */
export class SecretSweeper {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #log: Logger | undefined;
  readonly #scheduler: SweepScheduler;
  readonly #everyMs: number;
  #timer: unknown;
  #running: Promise<void> | undefined;
  #stopped = false;
  #sweptAll = false;

  constructor(opts: {
    store: Store;
    clock: Clock;
    log?: Logger | undefined;
    scheduler?: SweepScheduler | undefined;
    everyMs?: number | undefined;
  }) {
    this.#store = opts.store;
    this.#clock = opts.clock;
    this.#log = opts.log;
    this.#scheduler = opts.scheduler ?? unrefScheduler;
    this.#everyMs = Math.max(1000, opts.everyMs ?? 60_000);
  }

  start(): void {
    this.#run();
  }

  /** One sweep now; resolves when it is written. */
  sweep(): Promise<number> {
    return this.#sweep().then((r) => r.erased);
  }

  async #sweep(): Promise<{ erased: number; nextExpiry: number | null }> {
    // The first sweep of the process reads every record (marking those rotated before `inGrace` existed), the next
    // ones only the marked.
    const every = !this.#sweptAll;
    const r = await this.#store.transact((tx) => sweepSecretsTx(tx, this.#clock.now().getTime(), { every }));
    this.#sweptAll = true;
    if (r.erased > 0) await this.#store.compactNow(); // the erased values leave the store's files too
    if (r.erased > 0) this.#log?.info({ records: r.erased }, 'erased rotated signing secrets whose grace ended');
    return r;
  }

  #run(): void {
    if (this.#stopped) return;
    const run = this.#sweep()
      .then((r) => r.nextExpiry)
      .catch((err: unknown) => {
        this.#log?.error({ err: String(err) }, 'erasing expired signing secrets failed; trying again later');
        return null;
      })
      .then((nextExpiry) => {
        this.#running = undefined;
        if (this.#stopped) return;
        const now = this.#clock.now().getTime();
        const wait = nextExpiry === null ? this.#everyMs : Math.min(this.#everyMs, Math.max(0, nextExpiry - now));
        this.#timer = this.#scheduler.setTimeout(() => {
          this.#timer = undefined;
          this.#run();
        }, wait);
      });
    this.#running = run;
  }

  /** Stops the timer and waits for a sweep in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#scheduler.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
