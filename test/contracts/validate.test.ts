import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { PlanSchema, type Plan } from '../../src/contracts/plan.js';
import { planProblems, validatePlan, withPlanDefaults } from '../../src/contracts/validate.js';

const A = '0x52908400098527886E0F7030069857D2E4169EE7'; // EIP-55 test vector
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d';
const C = '0xde709f2102306220921060314715629080e2fb77';
const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';
const NFT = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'; // EIP-55 test vector

function plan(over: Partial<Plan> = {}): Plan {
  return PlanSchema.parse({
    blockchain: 'evm',
    ownerAddress: OWNER,
    beneficiaries: [
      { name: 'a', address: A, percentage: 33.33 },
      { name: 'b', address: B, percentage: 33.33 },
      { name: 'c', address: C, percentage: 33.34 },
    ],
    ...over,
  });
}

describe('plan validation (docs/decisions.md, Contracts)', () => {
  it('accepts a valid plan', () => {
    expect(planProblems(plan())).toEqual([]);
  });

  it('gives one detail per problem', () => {
    const bad = plan({
      ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c2',
      beneficiaries: [
        { name: 'a', address: '0x52908400098527886E0F7030069857D2E4169Ee7', percentage: 50.001 },
        { name: 'b', address: B, percentage: 20 },
        { name: 'c', address: B.toUpperCase().replace('0X', '0x'), percentage: 20 },
        { name: 'd', address: '0x0000000000000000000000000000000000000000', percentage: 5 },
      ],
    });
    try {
      validatePlan(bad);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).details!.map((d) => d.field)).toEqual([
        'ownerAddress',
        'beneficiaries.0.address',
        'beneficiaries.0.percentage',
        'beneficiaries.2.address',
        'beneficiaries.3.address',
        'beneficiaries',
      ]);
      expect((err as ApiError).details![1]!.reason).toMatch(/typo: did you mean 0x/);
      expect((err as ApiError).details![3]!.reason).toBe('Beneficiary 2 already has this address.');
    }
  });

  it("refuses the owner's own address as beneficiary, whatever its case", () => {
    const p = plan({
      beneficiaries: [{ name: 'a', address: OWNER.toUpperCase().replace('0X', '0x'), percentage: 100 }],
    });
    expect(planProblems(p)).toEqual([
      { field: 'beneficiaries.0.address', reason: "The owner's own address cannot be a beneficiary." },
    ]);
  });

  it('checks guardians and assets for the chain', () => {
    const p = plan({
      guardians: { addresses: [A, A, OWNER], threshold: 4 },
      assets: [
        { type: 'spl', address: A },
        { type: 'erc20' },
        { type: 'erc721', address: NFT, tokenId: '1', beneficiary: OWNER },
        { type: 'erc721', address: NFT },
      ],
    });
    expect(planProblems(p).map((d) => d.field)).toEqual([
      'guardians.addresses.1',
      'guardians.addresses.2',
      'guardians.threshold',
      'assets.0.type',
      'assets.1.address',
      'assets.2.beneficiary',
      'assets.3.tokenId',
      'assets.3.beneficiary',
    ]);
  });

  it('validates Solana and TON addresses', () => {
    const sol = plan({
      blockchain: 'solana',
      ownerAddress: '7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs',
      beneficiaries: [
        { name: 'a', address: 'So11111111111111111111111111111111111111112', percentage: 50 },
        { name: 'b', address: '0OIl-not-base58', percentage: 50 },
      ],
    });
    expect(planProblems(sol).map((d) => d.field)).toEqual(['beneficiaries.1.address']);
    const raw = '0:' + 'a'.repeat(64);
    const ton = plan({
      blockchain: 'ton',
      ownerAddress: '0:' + 'b'.repeat(64),
      beneficiaries: [
        { name: 'a', address: raw, percentage: 50 },
        { name: 'b', address: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N', percentage: 25 },
        { name: 'c', address: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2M', percentage: 25 },
      ],
    });
    expect(planProblems(ton).map((d) => d.field)).toEqual(['beneficiaries.2.address']);
  });

  it('refuses a zero-address guardian on every chain, saying why', () => {
    const zeros = {
      evm: { owner: OWNER, a: A, b: B, zero: '0x0000000000000000000000000000000000000000', other: C },
      solana: {
        owner: '7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs',
        a: 'So11111111111111111111111111111111111111112',
        b: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
        zero: '11111111111111111111111111111111',
        other: '8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR',
      },
      ton: {
        owner: '0:' + 'b'.repeat(64),
        a: '0:' + 'a'.repeat(64),
        b: '0:' + 'c'.repeat(64),
        zero: '0:' + '0'.repeat(64),
        other: '0:' + 'd'.repeat(64),
      },
    } as const;
    for (const [blockchain, x] of Object.entries(zeros)) {
      const p = plan({
        blockchain: blockchain as Plan['blockchain'],
        ownerAddress: x.owner,
        beneficiaries: [
          { name: 'a', address: x.a, percentage: 50 },
          { name: 'b', address: x.b, percentage: 50 },
        ],
        guardians: { addresses: [x.zero, x.other], threshold: 2 },
      });
      expect(planProblems(p), blockchain).toEqual([
        { field: 'guardians.addresses.0', reason: 'The zero address belongs to nobody: it cannot be a guardian.' },
      ]);
    }
  });

  it('refuses a token address that is the zero address, the owner or a beneficiary, on every chain', () => {
    const chains = {
      evm: { owner: OWNER, a: A, b: B, zero: '0x0000000000000000000000000000000000000000', type: 'erc20' },
      solana: {
        owner: '7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs',
        a: 'So11111111111111111111111111111111111111112',
        b: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
        zero: '11111111111111111111111111111111',
        type: 'spl',
      },
      ton: {
        owner: '0:' + 'b'.repeat(64),
        a: '0:' + 'a'.repeat(64),
        b: '0:' + 'c'.repeat(64),
        zero: '0:' + '0'.repeat(64),
        type: 'jetton',
      },
    } as const;
    for (const [blockchain, x] of Object.entries(chains)) {
      const p = plan({
        blockchain: blockchain as Plan['blockchain'],
        ownerAddress: x.owner,
        beneficiaries: [
          { name: 'a', address: x.a, percentage: 50 },
          { name: 'b', address: x.b, percentage: 50 },
        ],
        assets: [x.zero, x.owner, x.b].map((address) => ({ type: x.type, address })),
      });
      expect(planProblems(p), blockchain).toEqual([
        { field: 'assets.0.address', reason: "The zero address is no token contract: give the token's own address." },
        { field: 'assets.1.address', reason: "This is the owner's address, not a token contract." },
        {
          field: 'assets.2.address',
          reason:
            'This is the address of beneficiaries.1: a token contract cannot be a beneficiary, it could never claim.',
        },
      ]);
    }
  });

  it('refuses a jetton master outside the basechain, where the contract could not be tried with it', () => {
    const p = plan({
      blockchain: 'ton',
      ownerAddress: '0:' + 'b'.repeat(64),
      beneficiaries: [{ name: 'a', address: '0:' + 'a'.repeat(64), percentage: 100 }],
      assets: [
        { type: 'jetton', address: '-1:' + 'e'.repeat(64) },
        { type: 'jetton', address: '0:' + 'e'.repeat(64) },
      ],
    });
    expect(planProblems(p)).toEqual([
      {
        field: 'assets.0.address',
        reason:
          'A jetton master lives in the basechain (workchain 0, raw 0:...); this address is in the masterchain (-1).',
      },
    ]);
  });

  it('refuses a guardian that is a listed token contract, which could never sign', () => {
    const p = plan({
      blockchain: 'ton',
      ownerAddress: '0:' + 'b'.repeat(64),
      beneficiaries: [{ name: 'a', address: '0:' + 'a'.repeat(64), percentage: 100 }],
      deadMansSwitch: { enabled: false, intervalDays: 365, gracePeriodDays: 0 },
      guardians: { addresses: ['0:' + 'E'.repeat(64)], threshold: 1 },
      assets: [{ type: 'jetton', address: '0:' + 'e'.repeat(64) }],
    });
    expect(planProblems(p)).toEqual([
      {
        field: 'guardians.addresses.0',
        reason: 'This is a token contract listed in assets: it could never confirm or veto a release.',
      },
    ]);
  });

  it('refuses a fungible token listed twice, however its address is written, on every chain', () => {
    const evm = plan({
      assets: [
        { type: 'erc20', address: NFT },
        { type: 'erc20', address: NFT.toLowerCase() },
      ],
    });
    const mint = 'So11111111111111111111111111111111111111112';
    const sol = plan({
      blockchain: 'solana',
      ownerAddress: '7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs',
      beneficiaries: [{ name: 'a', address: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', percentage: 100 }],
      assets: [
        { type: 'spl', address: mint },
        { type: 'spl', address: mint },
      ],
    });
    const ton = plan({
      blockchain: 'ton',
      ownerAddress: '0:' + 'b'.repeat(64),
      beneficiaries: [{ name: 'a', address: '0:' + 'a'.repeat(64), percentage: 100 }],
      assets: [
        { type: 'jetton', address: '0:' + 'e'.repeat(64) },
        { type: 'jetton', address: '0:' + 'E'.repeat(64) },
      ],
    });
    for (const p of [evm, sol, ton])
      expect(planProblems(p), p.blockchain).toEqual([
        { field: 'assets.1.address', reason: 'This token is already listed as assets.0.' },
      ]);
    // Two items of one NFT contract are two assets.
    const nfts = plan({
      assets: [
        { type: 'erc721', address: NFT, tokenId: '1', beneficiary: A },
        { type: 'erc721', address: NFT, tokenId: '2', beneficiary: B },
      ],
    });
    expect(planProblems(nfts)).toEqual([]);
  });

  it('refuses more jettons than the TON contract holds, as generate_contract does', () => {
    const p = plan({
      blockchain: 'ton',
      ownerAddress: '0:' + 'b'.repeat(64),
      beneficiaries: [{ name: 'a', address: '0:' + 'a'.repeat(64), percentage: 100 }],
      assets: Array.from({ length: 11 }, (_, i) => ({
        type: 'jetton',
        address: `0:${(i + 1).toString(16).padStart(64, 'e')}`,
      })),
    });
    expect(planProblems(p)).toEqual([
      { field: 'assets', reason: 'A TON contract holds at most 10 jettons; this plan lists 11.' },
    ]);
  });

  it('refuses a share too small for one basis point on every chain, not only where the EVM builder checks it', () => {
    const chains = {
      evm: { owner: OWNER, a: A, b: B },
      solana: {
        owner: '7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs',
        a: 'So11111111111111111111111111111111111111112',
        b: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      },
      ton: { owner: '0:' + 'b'.repeat(64), a: '0:' + 'a'.repeat(64), b: '0:' + 'c'.repeat(64) },
    } as const;
    for (const [blockchain, x] of Object.entries(chains)) {
      const tiny = plan({
        blockchain: blockchain as Plan['blockchain'],
        ownerAddress: x.owner,
        beneficiaries: [
          { name: 'a', address: x.a, percentage: 100 },
          { name: 'b', address: x.b, percentage: 1e-9 },
        ],
      });
      expect(planProblems(tiny), blockchain).toEqual([
        { field: 'beneficiaries.1.percentage', reason: 'Use at most two decimals, like 33.33.' },
      ]);
    }
  });

  describe('a way to release the estate (issue #15), on every chain', () => {
    const tonPlan = (over: Partial<Plan> = {}) =>
      plan({
        blockchain: 'ton',
        ownerAddress: '0:' + 'b'.repeat(64),
        beneficiaries: [{ name: 'a', address: '0:' + 'a'.repeat(64), percentage: 100 }],
        ...over,
      });
    const solPlan = (over: Partial<Plan> = {}) =>
      plan({
        blockchain: 'solana',
        ownerAddress: '7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs',
        beneficiaries: [{ name: 'a', address: 'So11111111111111111111111111111111111111112', percentage: 100 }],
        ...over,
      });

    it('without deadMansSwitch the default switch (365 days) applies, and a note says so', () => {
      for (const p of [plan(), tonPlan(), solPlan()]) {
        expect(p.deadMansSwitch).toBeUndefined();
        const { plan: withDefault, notes } = withPlanDefaults(p);
        expect(withDefault.deadMansSwitch).toEqual({ enabled: true, intervalDays: 365, gracePeriodDays: 0 });
        expect(notes.map((n) => n.id)).toEqual(['default-dead-mans-switch']);
        expect(notes[0]!.message).toMatch(/365 days/);
        expect(notes[0]!.suggestion).toMatch(/365 days/);
        expect(planProblems(withDefault)).toEqual([]);
      }
      const given = plan({ deadMansSwitch: { enabled: true, intervalDays: 30, gracePeriodDays: 0 } });
      expect(withPlanDefaults(given)).toEqual({ plan: given, notes: [] });
      // A switch object without `enabled` is a switch.
      expect(plan({ deadMansSwitch: { intervalDays: 30 } as Plan['deadMansSwitch'] }).deadMansSwitch?.enabled).toBe(
        true,
      );
    });

    it('an explicit enabled: false without guardians is a VALIDATION_ERROR that says why, on evm, solana and ton', () => {
      const off = { deadMansSwitch: { enabled: false, intervalDays: 365, gracePeriodDays: 0 } };
      for (const p of [plan(off), tonPlan(off), solPlan(off)]) {
        const err = (() => {
          try {
            validatePlan(p);
          } catch (e) {
            return e;
          }
          return undefined;
        })();
        expect(err, p.blockchain).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe('VALIDATION_ERROR');
        expect((err as ApiError).details).toEqual([
          {
            field: 'deadMansSwitch.enabled',
            reason: expect.stringMatching(/no guardians.*locked forever.*add guardians/s),
          },
        ]);
      }
      // With guardians, they can release it: allowed.
      expect(
        planProblems(
          plan({
            ...off,
            guardians: { addresses: [A], threshold: 1 },
            beneficiaries: [{ name: 'b', address: B, percentage: 100 }],
          }),
        ),
      ).toEqual([]);
    });
  });

  describe('assets listed once, as one kind (issue #15)', () => {
    const NFT = '0x1111111111111111111111111111111111111111';
    it('token ids are numbers: "7" and "007" are the same NFT', () => {
      const p = plan({
        assets: [
          { type: 'erc721', address: NFT, tokenId: '7', beneficiary: A },
          { type: 'erc721', address: NFT.toUpperCase().replace('0X', '0x'), tokenId: '007', beneficiary: B },
          { type: 'erc721', address: NFT, tokenId: '70', beneficiary: B },
        ],
      });
      expect(planProblems(p)).toEqual([
        { field: 'assets.1.tokenId', reason: 'This is the same NFT as assets.0 (token ids are compared as numbers).' },
      ]);
    });

    it('one address listed as erc20 and as erc721 is refused, naming the field', () => {
      const p = plan({
        assets: [
          { type: 'erc721', address: NFT, tokenId: '1', beneficiary: A },
          { type: 'erc20', address: NFT },
          { type: 'erc20', address: NFT },
        ],
      });
      const details = planProblems(p);
      expect(details.map((d) => d.field)).toEqual(['assets.1.address', 'assets.2.address']);
      expect(details[0]!.reason).toMatch(/listed as erc721 in assets\.0/);
    });

    it('a token id beyond uint256 is refused', () => {
      const p = plan({ assets: [{ type: 'erc721', address: NFT, tokenId: '9'.repeat(78), beneficiary: A }] });
      expect(planProblems(p)).toEqual([
        { field: 'assets.0.tokenId', reason: 'This is larger than the largest token id (a uint256).' },
      ]);
    });
  });
});
