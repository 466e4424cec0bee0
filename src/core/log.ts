import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * The service's logger. Always stderr: stdout belongs to the MCP stdio
 * protocol. Credentials are redacted wherever they could appear.
 */
export function createLogger(
  level: string = 'info',
  destination: pino.DestinationStream = pino.destination({ fd: 2, sync: true }),
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

/**
 * Removes credentials from a URL before it is logged: the value of every
 * query parameter whose decoded name is `api_key` (however it is spelt:
 * `API_KEY`, `api%5Fkey`, `%61pi_key`, ...) or another credential name.
 */
export function redactUrl(url: string): string {
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
