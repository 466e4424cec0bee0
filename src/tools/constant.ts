/**
 * Outputs a handler gives again and again unchanged: a catalogue page built from constants. Such an output is frozen
 * (a change would throw rather than go unseen), checked against its tool's output schema once, and its checked form
 * is frozen and marked constant too, so that a transport may keep its serialised form (src/http/tool-routes.ts).
 * Everything else is checked on every call, as before.
 */
import type { z } from 'zod';

/** Each constant, with its checked form once the tool runner has checked it (null before), and the schema used. */
const constants = new WeakMap<object, { schema: z.ZodType; checked: Record<string, unknown> } | null>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Marks `value` as an output that never changes, and freezes it with everything it holds. */
export function constantOutput<T extends object>(value: T): T {
  if (!constants.has(value)) constants.set(deepFreeze(value), null);
  return value;
}

/** True for an output marked constant: a handler's own, or its checked form. */
export function isConstantOutput(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && constants.has(value);
}

/** The checked form of a constant output, when it was checked with `schema` already; undefined otherwise. */
export function checkedConstant(value: unknown, schema: z.ZodType): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const known = constants.get(value);
  return known && known.schema === schema ? known.checked : undefined;
}

/** Keeps the checked form of a constant output (frozen and constant itself) and returns it. */
export function rememberChecked(
  value: object,
  schema: z.ZodType,
  checked: Record<string, unknown>,
): Record<string, unknown> {
  constants.set(value, { schema, checked: constantOutput(checked) });
  return checked;
}
