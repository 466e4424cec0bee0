import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * The service's logger. Always stderr: stdout belongs to the MCP stdio
 * protocol. Credentials are redacted wherever they could appear.
 */
export function createLogger(level: string = 'info', destination: pino.DestinationStream = pino.destination({ fd: 2, sync: true })): Logger {
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

/** Removes credentials from a URL before it is logged (the `api_key` query parameter). */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1[redacted]');
}
