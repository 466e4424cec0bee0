import { describe, expect, it } from 'vitest';
import { passwordWeakness } from '../../src/accounts/password-strength.js';
import { ticker } from '../support/loop.js';

const user = { email: 'ada.lovelace@example.org', name: 'Ada Lovelace' };

describe('password strength', () => {
  it('explains why a weak password is refused and accepts a strong one', async () => {
    expect(await passwordWeakness('password12', user)).toMatch(/^too easy to guess\. This is a commonly used password/);
    expect(await passwordWeakness('ada.lovelace@example.org', user)).toMatch(/your email address/);
    // The user's own name is a word the estimator must not lean on.
    expect(await passwordWeakness('lovelace1815', user)).toMatch(/^too easy to guess/);
    expect(await passwordWeakness('quiet harbour lantern mosaic', user)).toBeUndefined();
  });

  it("is judged off the caller's thread: the event loop keeps turning while a long password is judged", async () => {
    await passwordWeakness('warm the estimator up first', user);
    // A long input of l33t-looking characters is the estimator's slowest kind (milliseconds of CPU per check). Judged
    // in this thread, the check would answer within the same turn of the loop (no turn would pass).
    const turns = ticker();
    const weakness = await passwordWeakness('4@5$1!0|3+7'.repeat(23), user);
    expect(turns.stop()).toBeGreaterThan(0);
    expect(weakness).toBeUndefined();
  });
});
