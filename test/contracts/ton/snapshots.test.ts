import { describe, expect, it } from 'vitest';
import { buildTonContract } from '../../../src/contracts/ton/contract.js';
import { printModule } from '../../../src/contracts/ton/func-model.js';
import { allTonShapes, tonContractSource, type TonShape } from '../../../src/contracts/ton/index.js';

const name = (s: TonShape) =>
  `${s.deadMansSwitch ? 'switch' : 'noswitch'}${s.gracePeriod ? '-grace' : ''}${s.guardians ? '-guardians' : ''}${s.jettons ? '-jettons' : ''}`;

describe('TON contract sources', () => {
  const custom = allTonShapes().filter((s) => s.template === 'custom');

  it.each(custom.map((s) => [name(s), s] as const))('matches the snapshot: %s', async (label, shape) => {
    await expect(tonContractSource(shape)).toMatchFileSnapshot(`./__snapshots__/inheritance-${label}.fc`);
  });

  it('templates change only the template constant and header', () => {
    for (const shape of allTonShapes()) {
      const base = tonContractSource({ ...shape, template: 'custom' }).split('\n');
      const mine = tonContractSource(shape).split('\n');
      expect(mine.length).toBe(base.length);
      const differing = mine.filter((l, i) => l !== base[i]);
      if (shape.template === 'custom') expect(differing).toEqual([]);
      else {
        expect(differing).toHaveLength(2);
        expect(differing[0]).toContain(`template=${shape.template}`);
        expect(differing[1]).toMatch(/^const int template_id = [1-5];/);
      }
    }
  });

  it('is printed from the model, deterministically, with shape-specific handlers', () => {
    const full: TonShape = {
      template: 'custom',
      deadMansSwitch: true,
      gracePeriod: true,
      guardians: true,
      jettons: true,
    };
    const bare: TonShape = {
      template: 'custom',
      deadMansSwitch: false,
      gracePeriod: false,
      guardians: false,
      jettons: false,
    };
    expect(printModule(buildTonContract(full))).toBe(tonContractSource(full));
    const fullNames = buildTonContract(full).functions.map((f) => f.name);
    const bareNames = buildTonContract(bare).functions.map((f) => f.name);
    expect(fullNames).toEqual(
      expect.arrayContaining([
        'on_veto',
        'on_approve',
        'get_guardians',
        'deadline',
        'release_time',
        'on_claim_jetton',
        'discover_wallets',
        'get_jettons',
      ]),
    );
    expect(bareNames).not.toContain('on_claim_jetton');
    expect(bareNames).not.toContain('on_veto');
    expect(bareNames).not.toContain('on_approve');
    expect(bareNames).not.toContain('deadline');
    // the stdlib declarations are part of the source and are not FunC 0.4.6 built-ins
    expect(tonContractSource(bare)).toContain('int now() asm "NOW";');
    expect(tonContractSource(bare)).not.toMatch(/null\?\(/);
  });
});
