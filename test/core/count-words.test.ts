import { describe, expect, it } from 'vitest';
import { guardianRulesText } from '../../src/contracts/guardians.js';
import { texts } from '../../src/embed/ui/i18n/index.js';

// Texts with a count in them read right when the count is one.

describe('a count of one', () => {
  it("the contracts' guardian rules: one guardian can veto, not '1 guardians'", () => {
    expect(guardianRulesText(2, 1, true)).toContain('; any one guardian can veto a trigger during the grace period');
    expect(guardianRulesText(3, 2, true)).toContain('2 guardians can veto a trigger during the grace period');
    for (const [n, m] of [
      [1, 1],
      [2, 1],
      [3, 1],
    ])
      expect(guardianRulesText(n!, m!, true)).not.toMatch(/\b1 guardians\b/);
  });

  it("the wizard's generate step names one beneficiary in the singular", () => {
    expect(texts('en').t.generateIntro('EVM', '1')).toMatch(/^Generate the EVM contract for 1 beneficiary\. /);
    expect(texts('en').t.generateIntro('EVM', '3')).toMatch(/^Generate the EVM contract for 3 beneficiaries\. /);
  });
});
