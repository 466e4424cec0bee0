/**
 * The one way any transport (MCP stdio, MCP over HTTP, REST) runs a tool: admit the caller (src/access/), validate
 * the input, run the handler with its context, and check and shape the output or the error.
 */
import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { runAsQueueCaller } from '../core/fair-queue.js';
import { issueDetail, issueFromZod, localeOfHeader, sayDetailsIn } from '../core/messages/index.js';
import type { Principal } from '../accounts/principal.js';
import { QUEUE_WEIGHT } from '../accounts/scopes.js';
import { GrantDesk } from '../accounts/grants.js';
import { accountStore } from '../accounts/tenancy.js';
import { requireConfirmedAddress } from '../accounts/email-flows.js';
import { admitCall } from '../access/admit.js';
import type { CallInfo } from '../access/call.js';
import { requireOperator } from '../access/permissions.js';
import { openShare } from '../access/share.js';
import { unavailableError } from '../access/unavailable.js';
import { checkedConstant, isConstantOutput, rememberChecked } from './constant.js';
import type { AnyTool, Services, SessionEffects, ToolContext } from './define.js';
import { refuseUnstorableText } from './text-guard.js';

/** The start of zod's own issue messages ("Too small: expected string to have >=1 characters", "Invalid input: ..."). */
const ZOD_WORDING = /^(Too (big|small)|Invalid (input|option|value|string|number|type|format)|Expected |Unrecognized )/;

/**
 * Whether `input` holds no value at `path`: a field left out (or given as undefined), looked up through the input's
 * own fields only, so a name such as `constructor` is not found on a prototype. False when a step on the way is not
 * an object: that issue is about the step, not a field left out.
 */
function leftOut(input: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  let value = input;
  for (const step of path) {
    if (typeof value !== 'object' || value === null) return false;
    if (!Object.hasOwn(value, step)) return true;
    value = (value as Record<PropertyKey, unknown>)[step];
  }
  return value === undefined;
}

/**
 * zod issues as `details` entries: dotted field path and a readable reason. Fields people fill in (names,
 * addresses, shares, counts, choices) get the human message the wizard shows too, and so does a required field left
 * out of `input` (the value that was parsed, when the caller has it); the rest keep zod's words. `people: false`
 * for a protocol's request (MCP's), whose fields are no person's: only the rules for any field apply.
 */
export function zodDetails(error: z.ZodError, input?: unknown, { people = true } = {}): ErrorDetail[] {
  // Two of zod's checks can fail the same way once put in plain words: each field and reason is said once.
  const seen = new Set<string>();
  return detailsOf(tightestBounds(error.issues), input, people).filter((d) => {
    const key = `${d.field}\u0000${d.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Of several bounds a value breaks on one field, the one that tells what to enter: 1e20 credits is past both
 * `.int()`'s safe-integer maximum and the schema's own 100,000,000, and only the second is worth saying.
 */
function tightestBounds(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const bound = (i: z.core.$ZodIssue) =>
    i.code === 'too_big' ? Number(i.maximum) : i.code === 'too_small' ? -Number(i.minimum) : undefined;
  const best = new Map<string, number>();
  for (const i of issues) {
    const b = bound(i);
    if (b === undefined || Number.isNaN(b)) continue;
    const key = `${i.code}\u0000${i.path.join('.')}`;
    best.set(key, Math.min(best.get(key) ?? Number.POSITIVE_INFINITY, b));
  }
  return issues.filter((i) => {
    const b = bound(i);
    return b === undefined || Number.isNaN(b) || best.get(`${i.code}\u0000${i.path.join('.')}`) === b;
  });
}

function detailsOf(issues: readonly z.core.$ZodIssue[], input: unknown, people: boolean): ErrorDetail[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ field: [...path, k].join('.'), reason: 'unknown field' }));
    }
    const missing = input !== undefined && leftOut(input, issue.path);
    // A value given to a union: the problems of the one choice whose type it has ("" for "a number, or a name" is
    // an empty name), rather than zod's bare "Invalid input".
    const chosen = issue.code === 'invalid_union' && !missing ? chosenBranch(issue) : undefined;
    if (chosen) return detailsOf(chosen, input, people);
    // A message the schema wrote itself (a limit per chain, say) is kept; zod's own wording is put in plain words.
    const human = ZOD_WORDING.test(issue.message) ? issueFromZod(issue, missing, people) : undefined;
    return [human ? issueDetail(path.join('.'), human) : { field: path.join('.'), reason: issue.message }];
  });
}

/**
 * The issues of the only choice of a union whose type the value has (the others failing on the type itself), with
 * their paths from the input's root; undefined when no choice, or more than one, has it.
 */
function chosenBranch(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue[] | undefined {
  const typed = issue.errors.filter((branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0));
  if (typed.length !== 1 || typed[0]!.length === 0) return undefined;
  return typed[0]!.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
}

/** The tool's input, validated: 400 VALIDATION_ERROR naming each bad field, or text the store cannot keep. */
function validate(tool: AnyTool, rawInput: unknown): Record<string, unknown> {
  const input = rawInput ?? {};
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) throw ApiError.validation(`Invalid input for ${tool.name}`, zodDetails(parsed.error, input));
  refuseUnstorableText(tool.name, parsed.data);
  return parsed.data;
}

const noProgress = (): void => undefined;

/** What a handler asks of the session cookie, kept on the call for the transport (methods on the prototype: no closures per request). */
class CookieEffects implements SessionEffects {
  constructor(private readonly call: CallInfo) {}
  set(token: string, expiresAt: Date): void {
    this.call.cookie = { token, expiresAt };
  }
  clear(): void {
    this.call.cookie = 'clear';
  }
}

/**
 * The handler's context, built field by field: copying Services with a spread
 * costs a hidden-class transition per call (measured: about 6% of a cheap REST
 * request), and naming the fields lets the compiler catch one left out. The
 * store is the caller's account's view: the one place tenancy is enforced.
 */
function toolContext(services: Services, tool: AnyTool, principal: Principal, call: CallInfo): ToolContext {
  return {
    config: services.config,
    store: accountStore(services.store, principal.ownerId),
    system: tool.crossAccount ? services.store : undefined,
    granted: undefined,
    grants: new GrantDesk(services.store, principal.ownerId),
    clock: services.clock,
    log: services.log,
    cursors: services.cursors,
    limiter: services.limiter,
    docs: services.docs,
    jurisdictions: services.jurisdictions,
    contracts: services.contracts,
    sessions: services.sessions,
    keyring: services.keyring,
    memoirAhead: services.memoirAhead,
    principal,
    requestId: call.requestId,
    clientIp: call.clientIp,
    signal: call.signal,
    progress: call.progress ?? noProgress,
    session: new CookieEffects(call),
  };
}

/** Runs the handler: operator-only inputs checked, a share opened when the tool acts through one. */
function run(
  tool: AnyTool,
  input: Record<string, unknown>,
  services: Services,
  principal: Principal,
  call: CallInfo,
): unknown {
  const ctx = toolContext(services, tool, principal, call);
  const operator = tool.operatorInput?.(input, ctx);
  if (operator instanceof Promise)
    return operator.then((asks) => {
      if (asks) requireOperator(principal);
      return confirmed(tool, input, services, principal, ctx, call);
    });
  if (operator) requireOperator(principal);
  return confirmed(tool, input, services, principal, ctx, call);
}

/** A session's confirmed address, when the tool asks for one, then the rest. */
function confirmed(
  tool: AnyTool,
  input: Record<string, unknown>,
  services: Services,
  principal: Principal,
  ctx: ToolContext,
  call: CallInfo,
): unknown {
  if (tool.confirmedAddress && principal.kind === 'session') {
    return requireConfirmedAddress(ctx.store, principal, tool.confirmedAddress).then(() =>
      proceed(tool, input, services, principal, ctx, call),
    );
  }
  return proceed(tool, input, services, principal, ctx, call);
}

/** The share a granted tool acts through, then the handler. */
function proceed(
  tool: AnyTool,
  input: Record<string, unknown>,
  services: Services,
  principal: Principal,
  ctx: ToolContext,
  call: CallInfo,
): unknown {
  if (tool.grant) {
    return openShare(services, tool.grant, input as { shareId: string }, principal).then((granted) => {
      ctx.granted = granted;
      return handle(tool, input, ctx, call);
    });
  }
  return handle(tool, input, ctx, call);
}

function handle(tool: AnyTool, input: Record<string, unknown>, ctx: ToolContext, call: CallInfo): unknown {
  const { principal } = ctx;
  // The worker pools the handler reaches queue its jobs under the caller's account, served in turn with the others.
  const caller = principal
    ? { account: principal.ownerId, weight: QUEUE_WEIGHT[principal.tier] }
    : { account: `address:${call.clientIp ?? 'unknown'}`, weight: QUEUE_WEIGHT.public };
  return runAsQueueCaller(caller, tool.handler, input, ctx);
}

/**
 * The handler's result checked against the tool's output schema; a mismatch is a server error, logged. A constant
 * output (./constant.ts) is checked the first time only.
 */
function shape(tool: AnyTool, result: unknown, services: Services, call: CallInfo): Record<string, unknown> {
  const known = checkedConstant(result, tool.output);
  if (known) return known;
  const checked = tool.output.safeParse(result);
  if (!checked.success) {
    services.log.error(
      { tool: tool.name, requestId: call.requestId, issues: checked.error.issues.length },
      'tool output does not match its schema',
    );
    throw ApiError.internal();
  }
  const data = checked.data as Record<string, unknown>;
  return isConstantOutput(result) ? rememberChecked(result, tool.output, data) : data;
}

/**
 * Admission (key, session or embed token, CSRF, IP whitelist, account status, rate limits, tier and scope) comes
 * first, so an unauthenticated or over-limit caller learns nothing about the input; then validation, the handler,
 * the output check, and error mapping. Gives the tool's output or fails with an ApiError: without a promise when
 * nothing needs waiting for (a cached key, the in-process limiter, a synchronous handler), in which case a failure
 * is thrown; callers await it either way.
 */
export function invokeTool(
  tool: AnyTool,
  rawInput: unknown,
  services: Services,
  call: CallInfo,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  try {
    const principal = admitCall(tool, services, call);
    const output =
      principal instanceof Promise
        ? principal.then((p) => runAdmitted(tool, rawInput, services, call, p))
        : runAdmitted(tool, rawInput, services, call, principal);
    if (!(output instanceof Promise)) return output;
    return output.catch((err: unknown) => {
      throw failure(err, tool, services, call);
    });
  } catch (err) {
    throw failure(err, tool, services, call);
  }
}

/** Validation, the handler and the output check, for an admitted caller. */
function runAdmitted(
  tool: AnyTool,
  rawInput: unknown,
  services: Services,
  call: CallInfo,
  principal: Principal,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const input = validate(tool, rawInput);
  const result = run(tool, input, services, principal, call);
  return result instanceof Promise
    ? result.then((r) => shape(tool, r, services, call))
    : shape(tool, result, services, call);
}

/** What a failed call answers: an ApiError as it is (details in the caller's language), else a 503 or a 500, logged. */
function failure(err: unknown, tool: AnyTool, services: Services, call: CallInfo): ApiError {
  if (err instanceof ApiError) {
    // The problems people fix themselves, in the caller's language when the request asks for one of ours.
    if (err.details && call.acceptLanguage) sayDetailsIn(err.details, localeOfHeader(call.acceptLanguage) ?? 'en');
    return err;
  }
  const unavailable = unavailableError(err, services.clock.now());
  if (unavailable) {
    // The error's name only: an engine's message may carry its address.
    services.log.warn(
      { tool: tool.name, requestId: call.requestId, err: (err as Error).name },
      'tool call refused: an engine cannot be reached',
    );
    return unavailable;
  }
  services.log.error({ err, tool: tool.name, requestId: call.requestId }, 'tool failed');
  return ApiError.internal();
}
