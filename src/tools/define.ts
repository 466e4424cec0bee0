import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Keyring } from '../core/keyring.js';
import type { Logger } from '../core/log.js';
import type { CursorCodec } from '../core/pagination.js';
import type { Principal } from '../accounts/principal.js';
import type { SessionAuthority } from '../accounts/sessions.js';
import type { ContractEngine } from '../contracts/engine.js';
import type { DocsIndex } from '../docs/search.js';
import type { EmbedAhead } from '../memoir/embed-ahead.js';
import type { JurisdictionIndex } from '../law/jurisdictions.js';
import type { RateLimiter } from '../keys/limiter.js';
import type { Scope, Tier } from '../accounts/scopes.js';
import type { Store } from '../store/port.js';
import type { GrantDesk, GrantedAccess, GrantPermission } from '../accounts/grants.js';
import { bounded } from './bounds.js';

/** Shared, long-lived dependencies of every handler. */
export interface Services {
  config: Config;
  store: Store;
  clock: Clock;
  log: Logger;
  cursors: CursorCodec;
  limiter: RateLimiter;
  /** The service's own documentation, indexed for search. */
  docs: DocsIndex;
  /** Jurisdiction data, validated at start. */
  jurisdictions: JurisdictionIndex;
  /** Contract generation and compilation (owns the solc worker pool). */
  contracts: ContractEngine;
  /** Users' passwords, sessions and CSRF tokens. */
  sessions: SessionAuthority;
  /** Seals the secrets the service stores (webhook and embed signing secrets) under the master key. */
  keyring: Keyring;
  /**
   * Embeds the passages of what memoir owners write in the background (src/memoir/embed-ahead.ts): present when a
   * language model provider is configured and SVC_MEMOIR_EMBED_AHEAD is not 0.
   */
  memoirAhead?: EmbedAhead;
}

/** What a handler can ask of the transport about the session cookie (REST only; MCP never carries one). */
export interface SessionEffects {
  /** Sets the session cookie to `token`, valid until `expiresAt`. */
  set(token: string, expiresAt: Date): void;
  /** Clears the session cookie. */
  clear(): void;
}

/**
 * What a handler receives besides its input: the services plus who is calling.
 * `store` is the caller's account's view of the store (src/accounts/tenancy.ts):
 * another account's records do not exist in it. A handler never sees the raw
 * store unless its tool declares `crossAccount` (operator tools).
 */
export interface ToolContext extends Omit<Services, 'store'> {
  store: Store;
  /** The raw store, only for tools declaring `crossAccount` (internal tier); undefined otherwise. */
  system: Store | undefined;
  /**
   * For tools declaring `grant`: the share named by the input's `shareId`, opened
   * by the wrapper for the caller (its grantor's covered records, read-only).
   * Undefined for every other tool.
   */
  granted: GrantedAccess | undefined;
  /** The caller's account as a holder of shares: claim one by its code, list those held. */
  grants: GrantDesk;
  /** Undefined only for tools with `auth: 'none'` (sign-up and sign-in). */
  principal: Principal;
  requestId: string;
  /** The client's address, as admission saw it. */
  clientIp: string | undefined;
  /**
   * Aborted when the caller goes away: the REST client disconnects, or the MCP
   * client sends notifications/cancelled (or its connection closes). Long work
   * (compiles) stops and frees its place in the queue.
   */
  signal: AbortSignal | undefined;
  /**
   * Reports a stage of long work (`generate_contract`: validate, law check,
   * compile, execute, measure), optionally with figures. Sent as MCP
   * `notifications/progress` when the client gave a progress token; a no-op
   * otherwise (and over REST). Never throws.
   */
  progress(stage: string, done?: number, total?: number): void;
  session: SessionEffects;
}

/** How a caller may authenticate to a tool (`embed`: a wizard token from POST /embed/sessions, src/embed/). */
export type PrincipalKind = 'key' | 'session' | 'embed';

/** Rate-limit bucket a call counts against (on top of the all-requests bucket). */
export type RateBucket = 'default' | 'generation' | 'chat';

export const ALL_TIERS: readonly Tier[] = ['public', 'partner', 'internal'];

/**
 * How the output appears in REST:
 * - `data`: `{success, data: <output>, meta}`
 * - `top-level`: `{success, ...<output>, meta}` (the contract routes: templates, generate, compile, estimate-gas)
 * - `list`: the output is `{items, pagination}`; REST answers `{success, data: items, meta: {pagination}}`
 */
export type RestShape = 'data' | 'top-level' | 'list';

export interface RestMapping {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path under /api/v1, with `:param` segments naming input fields. */
  path: string;
  shape: RestShape;
  /** Success status, 200 unless stated. */
  status?: number;
  /** Further absolute paths serving the same route (undocumented duplicates, e.g. `/api/jurisdictions`). */
  aliases?: string[];
  /** For shape `data`: the output field whose value is the envelope's `data` (default: the whole output). */
  dataField?: string;
  /** Error statuses this route can answer besides the common ones (e.g. 409, 501), for the OpenAPI document. */
  extraStatuses?: number[];
  /**
   * For shapes `data`, `list` and `top-level`: output fields carried in the envelope's `meta` instead (a secret shown
   * once, a catalogue's `pagination`, the storage usage beside a media list).
   */
  metaFields?: string[];
  /** The body is a multipart/form-data upload read by this, not JSON. */
  multipart?: MultipartBody;
  /** Input fields the route takes from request headers (e.g. an audio format from Accept), over any sent in the body. */
  fromHeaders?(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, unknown>;
  /**
   * Input fields the route takes from headers only (`fromHeaders` sets them), each with where it comes from: a body
   * that carries one is refused rather than silently overridden.
   */
  headerOnly?: Readonly<Record<string, string>>;
  /** The answer is a file (bytes or a stream) made from the output, not the JSON envelope. */
  file?(output: Record<string, unknown>): FileAnswer;
  /**
   * The OpenAPI parts a multipart body or a file answer needs, which the zod schemas cannot give: its parameters,
   * request body and success response as they appear in the document. The error responses are added from
   * `extraStatuses` as for every route.
   */
  docs?: RestDocs;
}

/** A JSON fragment of the OpenAPI document. */
export type OpenApiFragment = Record<string, unknown>;

export interface RestDocs {
  parameters?: OpenApiFragment[];
  requestBody?: OpenApiFragment;
  /** The success response, at the route's status. */
  success: OpenApiFragment;
}

/** One part of a multipart form, as the transport reads it. */
export type FormPart =
  | { type: 'file'; fieldname: string; filename: string; file: Readable }
  | { type: 'field'; fieldname: string; value: string };

/**
 * A multipart form being received: its parts in order, the request's declared length (none when chunked), and the
 * route's path parameters (e.g. the vault an item is uploaded to).
 */
export interface ReceivedForm {
  parts: AsyncIterable<FormPart>;
  declaredLength: number | undefined;
  params: Readonly<Record<string, string>>;
}

/** How a multipart body becomes the tool's input. */
export interface MultipartBody {
  /** Parser limits: the largest file, and how many files, fields and parts a form may hold, and a field's size. */
  limits(config: Config): { fileSize: number; files: number; fields: number; fieldSize: number; parts: number };
  /**
   * Reads the form into the tool's input, once the caller is admitted. What reading holds (a staged file, reserved
   * room) is given back by `settle(false)` when the tool then fails, and kept by `settle(true)`; reading that fails
   * gives it back itself.
   */
  read(
    form: ReceivedForm,
    services: Services,
    principal: Principal,
  ): Promise<{ input: Record<string, unknown>; settle(done: boolean): Promise<void> }>;
}

/** A file answer: its media type, headers and body (bytes, or a stream produced as it is read). */
export interface FileAnswer {
  contentType: string;
  headers: Record<string, string | number>;
  body: Buffer | Readable;
}

/** MCP tool annotations, every hint stated (clients assume the worst for a missing one). */
export interface ToolAnnotations {
  /** Whether the tool leaves every state unchanged. */
  readOnlyHint: boolean;
  /** Whether it may delete or overwrite something that cannot be had back (false for read-only tools). */
  destructiveHint: boolean;
  /** Whether calling it again with the same input has no further effect. */
  idempotentHint: boolean;
  /** Whether it reaches beyond the service (webhook deliveries to outside URLs). */
  openWorldHint: boolean;
}

/** Annotations of a tool that only reads. */
export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Annotations of a tool that adds or changes something; calling it again does it again. */
export const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** Annotations of a tool that sets something to a given state: calling it again changes nothing more. */
export const WRITE_IDEMPOTENT: ToolAnnotations = { ...WRITE, idempotentHint: true };
/** Annotations of a tool that deletes or revokes a record: gone for good, and gone once. */
export const DELETE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
/** Annotations of a tool that replaces something that cannot be had back, anew each call (a new secret). */
export const DESTRUCTIVE: ToolAnnotations = { ...WRITE, destructiveHint: true };
/** Annotations of a tool that reaches beyond the service (a delivery to an outside URL, a fetched image). */
export const OUTBOUND: ToolAnnotations = { ...WRITE, openWorldHint: true };

/** A route only a signed-in user reaches: a session (and its CSRF token on writes), REST only, not an MCP tool. */
export const SESSION_ONLY = { scope: null, principals: ['session'], mcp: false, bucket: 'default' } as const;

/** An operator tool: internal keys only, working across accounts (it receives ctx.system). */
export const OPERATOR_TOOL = { tiers: ['internal'], crossAccount: true, bucket: 'default' } as const;

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** snake_case name, used as the MCP tool name and the OpenAPI operationId. */
  name: string;
  title: string;
  description: string;
  /** Domain, used as the OpenAPI tag. */
  domain: string;
  /** Scope the caller's key needs; null when any valid key may call (tiers still apply). */
  scope: Scope | null;
  /** Tiers allowed to call; every tier when omitted. Others get 403 TIER_NOT_ALLOWED. */
  tiers?: readonly Tier[];
  bucket: RateBucket;
  annotations: ToolAnnotations;
  input: I;
  output: O;
  rest: RestMapping;
  /**
   * A valid input, shown as the OpenAPI example of the body, query and path
   * parameters. Ids of records that depend on data are well-formed placeholders.
   */
  example?: Record<string, unknown>;
  /**
   * `none`: no credential needed (register, login): counted per client address.
   * Default: a principal is required.
   */
  auth?: 'none';
  /**
   * Credentials accepted (default: API keys only). Sessions also need the CSRF header on non-GET requests; `embed` is
   * the contract wizard's token (src/embed/), so a tool listing it may be called from the embedded wizard too.
   */
  principals?: readonly PrincipalKind[];
  /** False: REST only, not offered over MCP (cookie-based session routes). Default true. */
  mcp?: boolean;
  /** The MCP tool definition's `_meta` (e.g. the MCP Apps `ui.resourceUri` of the document a host shows for it). */
  meta?: Record<string, unknown>;
  /** Long-running: over REST the transport aborts ctx.signal when the client disconnects. */
  cancellable?: boolean;
  /** Works across accounts (operator tools): must be internal-tier only; receives ctx.system. */
  crossAccount?: boolean;
  /**
   * True when this input asks for an effect reaching every account (e.g. a webhook subscription with
   * `accounts: "*"`, or a change to one): the wrapper then requires an internal-tier key with scope `all` (403
   * otherwise). It may read the caller's records (`ctx.store`) to tell.
   */
  operatorInput?(input: z.output<I>, ctx: ToolContext): boolean | Promise<boolean>;
  /**
   * Acts on another account's records through a share the caller holds (src/accounts/grants.ts): the input's
   * `shareId` names it, and the wrapper opens it before the handler runs (404 when the caller holds no such share,
   * 403 SHARE_NOT_AVAILABLE when it is not open or does not permit this use) and passes ctx.granted.
   */
  grant?: GrantPermission;
  /**
   * A user session must have confirmed its address to call it: the wrapper answers 403 EMAIL_NOT_VERIFIED with this
   * message otherwise (src/accounts/email-flows.ts, requireConfirmedAddress). Keys are not asked.
   */
  confirmedAddress?: string;
  // Method syntax keeps tools assignable to AnyTool (parameters are checked bivariantly).
  handler(input: z.output<I>, ctx: ToolContext): Promise<z.input<O>> | z.input<O>;
}

export type AnyTool = ToolDefinition<z.ZodObject, z.ZodObject>;

/**
 * Declares a tool: the registry and the adapters do the rest. Its input and output schemas get size bounds on every
 * string, array and number that has none of its own (./bounds.ts), so validation and the OpenAPI document agree.
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  def: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return { ...def, input: bounded(def.input, 'input'), output: bounded(def.output, 'output') };
}
