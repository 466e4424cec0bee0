import { ApiError, type ErrorDetail } from '../../core/errors.js';
import type { ObligatoryBequest } from '../jurisdiction-schema.js';
import { computeShares } from './engine.js';
import { Fraction } from './fraction.js';
import type { HeirCounts, HeirKey, Madhhab } from './heirs.js';
import type { EngineOptions, EngineResult, Step } from './types.js';

/**
 * The obligatory bequest (wasiyya wajiba) of the codes that enacted it
 * (Egypt, Law No. 71 of 1946 arts. 76-79; Syria; Jordan; ...): the children of
 * a child who died before the deceased receive what that child would have
 * inherited had it survived, within one third of the estate in all, before
 * the heirs divide the rest. Each predeceased child's amount is divided among
 * its own children, a male twice a female, as in inheritance. Grandchildren
 * who inherit anyway (a predeceased son's children when no son survives) take
 * nothing from it, the codes requiring that they not be heirs.
 */

export interface PredeceasedChild {
  sex: 'male' | 'female';
  sons: number;
  daughters: number;
}

/** One group of grandchildren taking by the obligatory bequest, with its part of the whole estate. */
export interface BequestGroup {
  heir: string;
  count: number;
  share: Fraction;
}

export interface BequestOutcome {
  groups: BequestGroup[];
  /** What the bequests take together, after the cap. */
  total: Fraction;
  /** What they would take without the cap. */
  uncapped: Fraction;
  capped: boolean;
  steps: Step[];
}

/**
 * The heirs with the predeceased children's own children counted among them,
 * where they may inherit: a son's children as sons' sons and daughters in
 * every school, and under the Ja'fari school a daughter's children too, who
 * take her place when no child survives.
 */
export function heirsWithGrandchildren(
  heirs: HeirCounts,
  children: readonly PredeceasedChild[],
  madhhab?: Madhhab,
): HeirCounts {
  const merged: HeirCounts = { ...heirs };
  for (const c of children) {
    if (c.sex === 'male') {
      merged.sonsSon = (merged.sonsSon ?? 0) + c.sons;
      merged.sonsDaughter = (merged.sonsDaughter ?? 0) + c.daughters;
    } else if (madhhab === 'jafari') {
      merged.daughtersSon = (merged.daughtersSon ?? 0) + c.sons;
      merged.daughtersDaughter = (merged.daughtersDaughter ?? 0) + c.daughters;
    }
  }
  return merged;
}

/** Input checks that need the whole request: a 400 with one detail per problem. */
export function checkPredeceasedInput(
  heirs: HeirCounts,
  children: readonly PredeceasedChild[],
  rule: ObligatoryBequest | undefined,
  jurisdiction: string | undefined,
  bequestsGiven: boolean,
): void {
  const details: ErrorDetail[] = [];
  if (!rule)
    details.push({
      field: 'predeceasedChildren',
      reason: jurisdiction
        ? `no obligatory bequest is recorded for jurisdiction "${jurisdiction}"; list the grandchildren who inherit under heirs instead`
        : 'give the jurisdiction whose law grants the obligatory bequest (e.g. "eg"); without one, list the grandchildren who inherit under heirs',
    });
  if (children.some((c) => c.sex === 'female') && ((heirs.daughtersSon ?? 0) > 0 || (heirs.daughtersDaughter ?? 0) > 0))
    details.push({
      field: 'heirs.daughtersSon',
      reason:
        "the children of a predeceased daughter are counted from predeceasedChildren; do not list them again as daughters' sons or daughters' daughters",
    });
  if (children.some((c) => c.sex === 'male') && ((heirs.sonsSon ?? 0) > 0 || (heirs.sonsDaughter ?? 0) > 0))
    details.push({
      field: 'heirs.sonsSon',
      reason:
        "the children of a predeceased son are counted from predeceasedChildren; do not list them again as sons' sons or sons' daughters",
    });
  if (bequestsGiven)
    details.push({
      field: 'estate.bequests',
      reason:
        'bequests beside an obligatory bequest are not computed yet (the obligatory bequest ranks first within the same third); leave them out',
    });
  if (details.length > 0) throw ApiError.validation('Invalid obligatory bequest input', details);
}

const label = (c: PredeceasedChild, i: number): string =>
  `predeceased ${c.sex === 'male' ? 'son' : 'daughter'} ${i + 1}`;

/** Whether a predeceased child's children qualify: not heirs themselves, and of a degree the statute covers. */
function eligibility(c: PredeceasedChild, rule: ObligatoryBequest, actual: EngineResult): string | true {
  if (c.sex === 'female' && rule.daughtersChildren === 'none')
    return 'the statute covers only the children of a predeceased son';
  const takes = (k: HeirKey) => actual.shares.some((s) => s.heir === k && s.share.num > 0n);
  const [boys, girls]: [HeirKey, HeirKey] =
    c.sex === 'male' ? ['sonsSon', 'sonsDaughter'] : ['daughtersSon', 'daughtersDaughter'];
  if ((c.sons > 0 && takes(boys)) || (c.daughters > 0 && takes(girls)))
    return `they inherit as the deceased's ${c.sex === 'male' ? "sons'" : "daughters'"} children, and the bequest is only for grandchildren who are not heirs`;
  return true;
}

/** Splits one child's amount among its children, a male twice a female. */
function splitAmongChildren(c: PredeceasedChild, i: number, amount: Fraction): BequestGroup[] {
  const parts = 2 * c.sons + c.daughters;
  const parent = `predeceased_${c.sex === 'male' ? 'son' : 'daughter'}_${i + 1}`;
  const out: BequestGroup[] = [];
  if (c.sons > 0)
    out.push({ heir: `grandchild_son_of_${parent}`, count: c.sons, share: amount.mul(Fraction.of(2 * c.sons, parts)) });
  if (c.daughters > 0)
    out.push({
      heir: `grandchild_daughter_of_${parent}`,
      count: c.daughters,
      share: amount.mul(Fraction.of(c.daughters, parts)),
    });
  return out;
}

/**
 * Computes the obligatory bequests: each qualifying predeceased child is
 * taken to be alive (all of them at once, as the Egyptian courts compute it)
 * and its share found by the engine; the total is cut to the cap in
 * proportion; each amount goes to that child's children.
 */
export function obligatoryBequest(
  heirs: HeirCounts,
  children: readonly PredeceasedChild[],
  madhhab: Madhhab,
  opts: EngineOptions,
  rule: ObligatoryBequest,
  actual: EngineResult,
): BequestOutcome {
  const steps: Step[] = [{ kind: 'statute', detail: `Obligatory bequest (wasiyya wajiba): ${rule.source.title}.` }];
  const eligible: number[] = [];
  children.forEach((c, i) => {
    const ok = eligibility(c, rule, actual);
    if (ok === true) eligible.push(i);
    else
      steps.push({ kind: 'statute', detail: `The children of the ${label(c, i)} take no obligatory bequest: ${ok}.` });
  });
  const none = { groups: [], total: Fraction.ZERO, uncapped: Fraction.ZERO, capped: false, steps };
  if (eligible.length === 0) return none;

  const alive: HeirCounts = { ...heirs };
  for (const i of eligible) {
    const k = children[i]!.sex === 'male' ? 'son' : 'daughter';
    alive[k] = (alive[k] ?? 0) + 1;
  }
  const hyp = computeShares(alive, madhhab, opts);
  const perHead = (k: 'son' | 'daughter'): Fraction => {
    const s = hyp.shares.find((x) => x.heir === k);
    return s ? s.share.div(s.count) : Fraction.ZERO;
  };
  const raw = eligible.map((i) => perHead(children[i]!.sex === 'male' ? 'son' : 'daughter'));
  const uncapped = Fraction.sum(raw);
  const cap = Fraction.parse(rule.cap);
  const capped = uncapped.gt(cap);
  const factor = capped ? cap.div(uncapped) : Fraction.ONE;
  const groups: BequestGroup[] = [];
  eligible.forEach((i, n) => {
    const c = children[i]!;
    const amount = raw[n]!.mul(factor);
    steps.push({
      kind: 'statute',
      detail: `Had the ${label(c, i)} survived, the share would have been ${raw[n]}; ${capped ? `cut to ${amount} by the cap, ` : ''}it goes to that child's ${c.sons} son(s) and ${c.daughters} daughter(s), a male twice a female.`,
    });
    groups.push(...splitAmongChildren(c, i, amount));
  });
  const total = uncapped.mul(factor);
  steps.push({
    kind: 'statute',
    detail: capped
      ? `The obligatory bequests (${uncapped}) exceed the cap of ${rule.cap} and are reduced in proportion to ${total}, taken before the heirs' shares.`
      : `The obligatory bequests take ${total} of the estate (within the cap of ${rule.cap}), before the heirs' shares.`,
  });
  steps.push({
    kind: 'statute',
    detail: `The heirs divide the remaining ${Fraction.ONE.sub(total)} by their shares computed below.`,
  });
  return { groups, total, uncapped, capped, steps };
}

/** The heirs' shares and the grandchildren's under representation, with the calculation they come from. */
export interface RepresentationOutcome {
  /** Each real heir type with its share of the whole. */
  heirs: Array<{ heir: HeirKey; count: number; share: Fraction }>;
  /** The grandchildren's groups, per predeceased child. */
  groups: BequestGroup[];
  /** What the grandchildren take together. */
  total: Fraction;
  /** The calculation with the predeceased children alive, whose exclusions, steps and bases the answer reports. */
  engine: EngineResult;
  steps: Step[];
}

/**
 * Representation (Pakistan, Muslim Family Laws Ordinance 1961, s. 4): every
 * predeceased child is taken to be alive (all at once) and the estate
 * divided; each such child's share goes to its own children per stirpes, a
 * male twice a female as in inheritance, and every other heir keeps what it
 * has in that division. Unlike the obligatory bequest there is no cap and no
 * condition that the grandchildren be non-heirs: they take their parent's
 * place instead of inheriting in their own right, so they are not counted
 * among the heirs.
 */
export function representation(
  heirs: HeirCounts,
  children: readonly PredeceasedChild[],
  madhhab: Madhhab,
  opts: EngineOptions,
  rule: ObligatoryBequest,
): RepresentationOutcome {
  const steps: Step[] = [
    {
      kind: 'statute',
      detail: `Representation: ${rule.source.title}. Each predeceased child is taken to be alive and its share goes to its own children per stirpes; the other heirs keep their shares in that division, with no cap.`,
    },
  ];
  const alive: HeirCounts = { ...heirs };
  for (const c of children) {
    const k = c.sex === 'male' ? 'son' : 'daughter';
    alive[k] = (alive[k] ?? 0) + 1;
  }
  const engine = computeShares(alive, madhhab, opts);
  const out: RepresentationOutcome['heirs'] = [];
  const perHead = new Map<HeirKey, Fraction>();
  for (const s of engine.shares) {
    const each = s.share.div(s.count);
    perHead.set(s.heir, each);
    const real = s.heir === 'son' || s.heir === 'daughter' ? (heirs[s.heir] ?? 0) : s.count;
    if (real > 0) out.push({ heir: s.heir, count: real, share: each.mul(real) });
  }
  const groups: BequestGroup[] = [];
  let total = Fraction.ZERO;
  children.forEach((c, i) => {
    const amount = perHead.get(c.sex === 'male' ? 'son' : 'daughter') ?? Fraction.ZERO;
    total = total.add(amount);
    steps.push({
      kind: 'statute',
      detail: `The ${label(c, i)} would have taken ${amount}; it goes to that child's ${c.sons} son(s) and ${c.daughters} daughter(s), a male twice a female.`,
    });
    groups.push(...splitAmongChildren(c, i, amount));
  });
  return { heirs: out, groups, total, engine, steps };
}
