import pino, { type Logger } from 'pino';

export type { Logger };

/** Past this many characters held, the lines are written at once rather than at the end of the turn. */
const HOLD_CHARS = 64 * 1024;

/** Destinations holding lines, written out when the process exits (one listener for all of them). */
const holding = new Set<TurnLines>();
let exitHooked = false;
/** Set once the process's `exit` event has come: a line logged from then on (by a later listener) is written at once. */
let exiting = false;

/**
 * A destination that writes the lines logged during one turn of the event loop in one write to `dest` (a synchronous
 * pino destination, which retries a busy descriptor), in a `setImmediate` after them. A line is one system call
 * otherwise: at the default level a request line per request, some 10 µs of a loaded request's 130 on a virtual
 * machine where system calls are dear. The immediate does not keep the process alive; what is held when it exits
 * (`process.exit`, an uncaught error, the loop running dry) is written by its `exit` event. Lost: at most one
 * turn's lines at a SIGKILL or a crash of node itself, which a synchronous write per line would have kept.
 */
export class TurnLines implements pino.DestinationStream {
  readonly #dest: pino.DestinationStream;
  #held = '';

  constructor(dest: pino.DestinationStream) {
    this.#dest = dest;
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', () => {
        exiting = true;
        for (const d of holding) d.flush();
      });
    }
  }

  write(line: string): void {
    this.#held += line;
    if (exiting || this.#held.length >= HOLD_CHARS) {
      this.flush();
      return;
    }
    // Held lines and a flush to come go together: one immediate per turn.
    if (holding.has(this)) return;
    holding.add(this);
    setImmediate(() => this.flush()).unref();
  }

  /** Writes what is held now; then calls `done` (pino's `logger.flush(cb)` passes its callback here). */
  flush(done?: (err?: Error) => void): void {
    holding.delete(this);
    const text = this.#held;
    this.#held = '';
    if (text !== '') {
      try {
        this.#dest.write(text);
      } catch {
        // Standard error closed (EPIPE) or the like: the lines are dropped, as a line written at once would have
        // been; logging never stops the service.
      }
    }
    done?.();
  }
}

let stderrLines: TurnLines | undefined;

/** The process's standard error as a log destination: one, shared by every logger writing there. */
export function stderrDestination(): TurnLines {
  stderrLines ??= new TurnLines(pino.destination({ fd: 2, sync: true }));
  return stderrLines;
}

/**
 * The service's logger. Always stderr: stdout belongs to the MCP stdio
 * protocol. Credentials are redacted wherever they could appear.
 */
export function createLogger(
  level: string = 'info',
  destination: pino.DestinationStream = stderrDestination(),
): Logger {
  return pino(
    {
      level,
      base: { svc: true },
      serializers: {
        // Request lines keep method, path and peer; the query's api_key is masked.
        req: (req: { method?: string; url?: string; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: req.url === undefined ? undefined : redactUrl(req.url),
          remoteAddress: req.socket?.remoteAddress,
        }),
      },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'req.headers.cookie',
          'headers.authorization',
          'headers["x-api-key"]',
          'apiKey',
          'key',
          'secret',
          'password',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** Query parameters whose values are credentials, compared after decoding and lower-casing the name. */
const SECRET_PARAMS = new Set(['api_key', 'apikey', 'api-key', 'key', 'access_token', 'token', 'secret', 'password']);

/** A query parameter's name as a server would read it: `+` as space, %XX decoded (repeatedly, up to 3 times), lower-cased. */
function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  for (let i = 0; i < 3 && name.includes('%'); i++) {
    let next: string;
    try {
      next = decodeURIComponent(name);
    } catch {
      // A malformed sequence elsewhere in the name: decode the well-formed %XX bytes one by one.
      next = name.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
    if (next === name) break;
    name = next;
  }
  return name.trim().toLowerCase();
}

/** An API key value (svc_pk_, svc_pt_, svc_sk_) or an embed token (svc_et_), by its prefix, wherever it stands. */
const KEY_VALUE = /svc_(pk|pt|sk|et)_[A-Za-z0-9_.%-]+/g;
/**
 * A memoir share's claim code (shc_, src/accounts/grants.ts) or a mailed link's token (emt_, src/accounts/email-tokens.ts),
 * by its prefix, wherever it stands: whoever reads one may claim the share or use the link before its owner.
 */
const LINK_SECRET = /(shc|emt)_[A-Za-z0-9_%-]+/g;

/**
 * Removes credentials from a URL before it is logged: a key value, an embed token, a share's claim code or a mailed link's
 * token wherever it stands, and the value of every
 * query parameter whose decoded name is `api_key` (however it is spelt:
 * `API_KEY`, `api%5Fkey`, `%61pi_key`, ...) or another credential name.
 */
export function redactUrl(url: string): string {
  // A key value or an embed token anywhere else (given where an id goes, or after a mistyped `;` instead of `?`).
  if (url.includes('svc_')) url = url.replace(KEY_VALUE, 'svc_$1_[redacted]');
  if (url.includes('shc_') || url.includes('emt_')) url = url.replace(LINK_SECRET, '$1_[redacted]');
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    return SECRET_PARAMS.has(decodedName(name)) ? `${name}=[redacted]` : part;
  });
  return url.slice(0, q + 1) + parts.join('&') + (hash < 0 ? '' : url.slice(hash));
}
