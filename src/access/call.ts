import type { RateState } from '../core/limiter-port.js';
import type { Principal } from '../accounts/principal.js';

/** What a transport knows about one call. */
export interface CallInfo {
  /** The key as presented (Bearer, X-API-Key, api_key, or the stdio configuration). */
  apiKey: string | undefined;
  requestId: string;
  transport: 'rest' | 'mcp-stdio' | 'mcp-http';
  /** The client's address (the socket's, or from trusted proxies); loopback for stdio. */
  clientIp: string | undefined;
  /** REST and MCP over HTTP: the request's connection (its socket), which remembers the hash of the key it presented last. */
  connection?: object | undefined;
  /** REST only: the session cookie's token, when the request carries one. */
  sessionToken?: string | undefined;
  /** REST only: the X-CSRF-Token header. */
  csrfToken?: string | undefined;
  /**
   * REST and MCP over HTTP: the Accept-Language header as sent. Read only when a call is refused with `details`, whose reasons are
   * then said in the first of the service's languages it asks for (English otherwise).
   */
  acceptLanguage?: string | undefined;
  /** REST only: the HTTP method (CSRF is required on everything but GET). */
  method?: string | undefined;
  /**
   * Set when the transport has already authenticated the request and counted it
   * in the all-requests bucket (MCP over HTTP admits each POST once, for every
   * JSON-RPC method alike): only the tool's own bucket is counted then.
   */
  admitted?: Principal | undefined;
  /** Aborted when the caller has gone away (REST disconnect, MCP cancellation). */
  signal?: AbortSignal | undefined;
  /** Where the handler's ctx.progress goes (MCP with a progress token); a no-op when undefined. */
  progress?: ((stage: string, done?: number, total?: number) => void) | undefined;
  /** REST only: what the handler asked of the session cookie (set by ctx.session). */
  cookie?: { token: string; expiresAt: Date } | 'clear' | undefined;
  /**
   * Set by admission to the all-requests counter once it was counted (also when
   * the call is then refused), for the X-RateLimit-* headers. A field rather than
   * a callback: no closure per request on the hot path.
   */
  rate?: RateState | undefined;
}
