import type { FuncModule } from '../func-model.js';
import { fn } from '../func-helpers.js';
import type { TonShape } from '../shape.js';

/**
 * When the estate is released: the dead man's switch (the last check-in plus
 * the interval, plus any grace period), or without a switch by the owner,
 * and in both cases by the guardians' early release if the shape has them.
 */
export function addTiming(m: FuncModule, shape: TonShape): void {
  const byGuardians = shape.guardians ? ' | guardians_released?()' : '';
  if (shape.deadMansSwitch) {
    m.functions.push(
      fn('deadline', 'int', [], ['inline'], ['return ctx_last + ctx_interval'], 'Last check-in plus the interval.'),
      fn(
        'release_time',
        'int',
        [],
        ['inline'],
        [shape.gracePeriod ? 'return deadline() + ctx_grace' : 'return deadline()'],
      ),
      fn('before_deadline?', 'int', [], ['inline'], ['return now() < deadline()']),
      fn(
        'released?',
        'int',
        [],
        ['inline'],
        [
          `return (ctx_state == state::released) | ((ctx_state == state::active) & (ctx_last > 0) & ((now() >= release_time())${byGuardians}))`,
        ],
        'Released by a claim, or because the owner (whose first message started the clock) missed the deadline and any grace period' +
          (shape.guardians ? ", or stayed silent after the guardians' proposal." : '.'),
      ),
    );
  } else {
    m.functions.push(
      fn(
        'before_deadline?',
        'int',
        [],
        ['inline'],
        ['return -1'],
        'No switch: the owner may act until the estate is released.',
      ),
      fn(
        'released?',
        'int',
        [],
        ['inline'],
        [
          shape.guardians
            ? 'return (ctx_state == state::released) | ((ctx_state == state::active) & guardians_released?())'
            : 'return ctx_state == state::released',
        ],
        shape.guardians
          ? "No switch: released by the owner, or by the guardians after the owner's silence."
          : 'No switch: released only by the owner.',
      ),
    );
  }
}
