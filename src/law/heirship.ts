import { thePlace } from '../core/messages/place-en.js';
import type { Finding, PlanBeneficiary, Source } from './findings.js';
import type { HeirGroup, Jurisdiction, ReserveShare } from './jurisdictions.js';
import {
  At,
  at,
  EPS,
  type Family,
  familyOf,
  fractionValue,
  groupOf,
  groupsText,
  mainSource,
  matches,
  membersOf,
  pct,
  regimeOf,
  round2,
  theRegime,
} from './plan-family.js';

export { fractionValue };

/**
 * Checks a plan against one jurisdiction's forced heirship, spouse rights,
 * marital property and Islamic-law data (see docs-index/jurisdictions.md).
 *
 * The plan only names its beneficiaries, not the whole family, so the family
 * situation is read from the beneficiaries' `relationship` words: the reserve
 * scenario is chosen as if the named relatives were the whole family, and an
 * info finding reminds the owner of reserved heirs who are not named.
 * Findings never refuse a plan: a will cannot take away a reserve, so a shortfall
 * is a `warning` (the heirs may claim reduction, or money: `forcedHeirship.claim`), context is `info`.
 */

/** What heirs left short may claim (`forcedHeirship.claim`). */
const CLAIMS = {
  reduction: 'the heirs may claim reduction of the other gifts.',
  money: 'the heirs left short may claim the difference in money from the estate.',
};
function checkTemplate(j: Jurisdiction, template: string, out: Finding[]): void {
  if (template === 'custom' || (j.recommendedTemplates as readonly string[]).includes(template)) return;
  const recommended = `Recommended: ${j.recommendedTemplates.join(', ')}.`;
  let message: string;
  let variant: string;
  if (template.startsWith('islamic') && j.islamicLaw.applies === 'none') {
    variant = 'no-legal-force';
    message = `Islamic inheritance law has no legal force in ${at(j)}; the plan takes effect as an ordinary disposition under local law, including any forced heirship or spouse rights.`;
  } else if (template === 'common-law' && j.forcedHeirship.exists && j.islamicLaw.applies === 'none') {
    variant = 'forced-heirship';
    message = `${At(j)} has forced heirship; the common-law template assumes freedom of testation. Reserved heirs keep their claims whatever the plan says, so consider the civil-law template.`;
  } else if (template === 'civil-law' && !j.forcedHeirship.exists) {
    variant = 'no-reserve';
    message = `${At(j)} has no forced heirship of the civil-law kind; the civil-law template's reserves are not required here (they are harmless if intended). ${recommended}`;
  } else {
    variant = 'not-recommended';
    message = `The ${template} template is not among those recommended for ${at(j)}. ${recommended}`;
  }
  out.push({
    severity: 'info',
    rule: 'template.mismatch',
    message,
    source: mainSource(j),
    params: { variant, template, jurisdiction: j.id, recommended: j.recommendedTemplates.join(',') },
  });
}

function checkReserve(
  j: Jurisdiction,
  r: ReserveShare,
  f: Family,
  beneficiaries: readonly PlanBeneficiary[],
  out: Finding[],
): void {
  const fh = j.forcedHeirship;
  const severity = fh.onlyIf ? 'info' : 'warning';
  const condition = fh.onlyIf ? ` This applies only if ${fh.onlyIf}.` : '';
  const basis = fh.basis === 'movable-estate' ? 'of the movable estate (crypto-assets are movable)' : 'of the estate';
  const note = r.note ? ` ${r.note}` : '';
  const claim = fh.claim ?? 'reduction';
  const source = r.source ?? mainSource(j);
  // What the translated sentences say of the basis and the condition (their English text is the jurisdiction's).
  const common = {
    jurisdiction: j.id,
    basis: fh.basis === 'movable-estate' ? 'movable-estate' : 'estate',
    conditional: fh.onlyIf ? 1 : 0,
  };
  const members = membersOf(f, r.heirs);
  const given = members.reduce((s, i) => s + beneficiaries[i]!.percentage, 0);
  const required = fractionValue(r.fraction) * 100;
  if (given < required - EPS) {
    const finding: Finding = {
      severity,
      rule: 'forced-heirship.reserve',
      message:
        `In ${at(j)}, ${groupsText(r.heirs)} ${r.heirs.length > 1 || r.heirs[0] === 'descendants' ? 'together are' : r.heirs[0] === 'parents' ? 'are' : 'is'} entitled to a reserve of ${r.fraction} ${basis} (${pct(required)}); ` +
        `this plan gives ${pct(given)}. A will cannot take the reserve away: ${CLAIMS[claim]}${note}${condition}`,
      source,
      expected: `at least ${pct(required)}`,
      params: {
        ...common,
        variant: 'collective',
        claim,
        heirs: r.heirs.join(','),
        fraction: r.fraction,
        reservePercent: round2(required),
        givenPercent: round2(given),
      },
    };
    if (members.length === 1) finding.beneficiaryIndex = members[0]!;
    out.push(finding);
  }
  // Personal minimum of each child where the law splits (part of) the reserve equally.
  // (With a single descendant named and the whole reserve split per head, the collective check says it all.)
  const sameAsCollective = members.length === 1 && r.perHead === r.fraction;
  if (r.perHead && !sameAsCollective && r.heirs.length === 1 && r.heirs[0] === 'descendants' && f.children > 0) {
    const each = (fractionValue(r.perHead) * 100) / f.children;
    for (const [i, b] of beneficiaries.entries()) {
      if (f.cls[i] !== 'child' || b.percentage >= each - EPS) continue;
      out.push({
        severity,
        rule: 'forced-heirship.reserve',
        message: `In ${at(j)}, ${f.children === 1 ? 'the one child named is' : `each of the ${f.children} children named is`} entitled to at least ${pct(each)} ${basis} as a reserved share; "${b.name}" receives ${pct(b.percentage)}.${condition}`,
        source,
        beneficiaryIndex: i,
        expected: `at least ${pct(each)}`,
        params: {
          ...common,
          variant: 'per-child',
          children: f.children,
          eachPercent: round2(each),
          givenPercent: round2(b.percentage),
          beneficiary: i + 1,
        },
      });
    }
  }
}

/**
 * A reserve in usufruct (the surviving spouse in Spain and Belgium): a lifetime right to use part of the estate or
 * take its income, which burdens the others' shares. It is not a percentage of ownership, so no shortfall is
 * computed: a plan that gives the heirs at least that part in ownership gives them more than the usufruct is worth;
 * a smaller part may or may not be worth as much (that depends on the heir's age), and the heirs may still claim it.
 * `members` undefined: a spouse not named (a reminder, as `forced-heirship.unnamed-heirs`).
 */
function checkUsufruct(
  j: Jurisdiction,
  r: ReserveShare,
  beneficiaries: readonly PlanBeneficiary[],
  members: readonly number[] | undefined,
  out: Finding[],
): void {
  const fh = j.forcedHeirship;
  const source = r.source ?? mainSource(j);
  const basis = fh.basis === 'movable-estate' ? 'of the movable estate' : 'of the estate';
  const note = r.note ? ` ${r.note}` : '';
  const condition = fh.onlyIf ? ` This applies only if ${fh.onlyIf}.` : '';
  const who = groupsText(r.heirs);
  const what =
    'a right for life to use that part of the property or take its income, which burdens what the other heirs receive until its holder dies. ' +
    'It is not a share of ownership the contract can pay out.';
  const common = {
    jurisdiction: j.id,
    heirs: r.heirs.join(','),
    fraction: r.fraction,
    basis: fh.basis === 'movable-estate' ? 'movable-estate' : 'estate',
    conditional: fh.onlyIf ? 1 : 0,
  };
  if (members === undefined) {
    out.push({
      severity: 'info',
      rule: 'forced-heirship.usufruct',
      message:
        `If you are married: in ${at(j)} your spouse has by law a usufruct of ${r.fraction} ${basis}, for the family this plan names (${source.title}), whatever this plan says: ` +
        `${what}${note}${condition}`,
      source,
      params: { ...common, variant: 'not-named' },
    });
    return;
  }
  const given = members.reduce((s, i) => s + beneficiaries[i]!.percentage, 0);
  if (given >= fractionValue(r.fraction) * 100 - EPS) return;
  out.push({
    severity: fh.onlyIf ? 'info' : 'warning',
    rule: 'forced-heirship.usufruct',
    message:
      `In ${at(j)}, ${who} ${r.heirs.length > 1 ? 'have' : 'has'} a reserve in usufruct of ${r.fraction} ${basis} (${source.title}): ${what} ` +
      `This plan gives ${who} ${pct(given)} in ownership; the usufruct may still be claimed unless what the plan gives is worth as much (a usufruct's value depends on its holder's age).${note}${condition}`,
    source,
    params: { ...common, variant: 'short', givenPercent: round2(given) },
    ...(members.length === 1 ? { beneficiaryIndex: members[0]! } : {}),
  });
}

function checkForcedHeirship(
  j: Jurisdiction,
  f: Family,
  regime: 'community' | 'separate',
  beneficiaries: readonly PlanBeneficiary[],
  out: Finding[],
): void {
  const fh = j.forcedHeirship;
  if (!fh.exists) return;
  if (fh.scenarios.length === 0) {
    // Islamic-law jurisdictions: the reserve is fara'id, handled by the Islamic checks.
    if (j.islamicLaw.applies !== 'none') return;
    out.push({
      severity: 'info',
      rule: 'forced-heirship.not-computed',
      message: `${At(j)} has forced heirship, which this service does not compute: ${fh.summary}`,
      source: mainSource(j),
      params: { jurisdiction: j.id },
    });
    return;
  }
  const scenario = fh.scenarios.find((s) => matches(s, f, regime));
  for (const r of scenario?.reserves ?? []) {
    if (r.right !== 'usufruct') checkReserve(j, r, f, beneficiaries, out);
    else checkUsufruct(j, r, beneficiaries, membersOf(f, r.heirs), out);
  }
  // Reserved heirs not named in the plan who would have a reserve if they exist. A reserve in usufruct is told
  // apart: it is not "part of the estate" but a right over it.
  const named = new Set(f.cls.map(groupOf).filter((g): g is HeirGroup => g !== undefined));
  const unnamed: HeirGroup[] = [];
  for (const g of fh.reservedHeirs) {
    if (named.has(g)) continue;
    const withG: Family =
      g === 'spouse'
        ? { ...f, spouse: true }
        : g === 'parents'
          ? { ...f, parents: true, parentCount: 1 }
          : { ...f, children: 1, descendants: 1 };
    const theirs = fh.scenarios.find((x) => matches(x, withG, regime))?.reserves.filter((r) => r.heirs.includes(g));
    if (!theirs || theirs.length === 0) continue;
    if (g === 'spouse' && theirs.every((r) => r.right === 'usufruct'))
      for (const r of theirs) checkUsufruct(j, r, beneficiaries, undefined, out);
    else unnamed.push(g);
  }
  if (unnamed.length > 0) {
    out.push({
      severity: 'info',
      rule: 'forced-heirship.unnamed-heirs',
      message:
        `${At(j)} reserves part of the estate for ${groupsText(unnamed)} in your situation. ` +
        `The plan names none; if you leave any, they keep their reserve even though the plan does not name them. ${fh.summary}`,
      source: mainSource(j),
      params: { jurisdiction: j.id, heirs: unnamed.join(',') },
    });
  }
}

function checkElectiveShare(
  j: Jurisdiction,
  f: Family,
  beneficiaries: readonly PlanBeneficiary[],
  out: Finding[],
): void {
  const es = j.spouseRights.electiveShare;
  if (!es) return;
  const source: Source = { title: es.statute, ...(mainSource(j).url ? { url: mainSource(j).url } : {}) };
  const hasDesc = f.children + f.grandchildren > 0;
  const flat = es.fractions.find((x) => x.when === 'always' || (x.when === 'descendants') === hasDesc);
  const spouseIdx = f.cls.flatMap((c, i) => (c === 'spouse' ? [i] : []));
  const spousePct = spouseIdx.reduce((s, i) => s + beneficiaries[i]!.percentage, 0);
  const caveat = `It is computed on more than the assets in this plan (${es.basis}), so other property passing to the spouse counts toward it.`;
  if (spouseIdx.length === 0) {
    out.push({
      severity: 'info',
      rule: 'spouse.elective-share',
      message: `${At(j)} gives a surviving spouse an elective share (${es.statute}): if you are married, your spouse may claim ${flat ? flat.fraction : es.maxFraction ? `up to ${es.maxFraction}` : 'a statutory share'} whatever this plan says. ${caveat}`,
      source,
      ...(flat ? { expected: `at least ${pct(fractionValue(flat.fraction) * 100)}` } : {}),
      params: {
        variant: 'no-spouse',
        jurisdiction: j.id,
        statute: es.statute,
        ...(flat
          ? { fraction: flat.fraction, requiredPercent: round2(fractionValue(flat.fraction) * 100) }
          : es.maxFraction
            ? { maxFraction: es.maxFraction, maxPercent: round2(fractionValue(es.maxFraction) * 100) }
            : {}),
      },
    });
    return;
  }
  const idx = spouseIdx.length === 1 ? { beneficiaryIndex: spouseIdx[0]! } : {};
  if (flat) {
    const required = fractionValue(flat.fraction) * 100;
    if (spousePct < required - EPS) {
      out.push({
        severity: 'warning',
        rule: 'spouse.elective-share',
        message: `In ${at(j)} the surviving spouse may elect to take ${flat.fraction} (${pct(required)}) instead of what the will gives (${es.statute}); this plan gives ${pct(spousePct)}. ${caveat}`,
        source,
        expected: `at least ${pct(required)}`,
        params: {
          variant: 'fixed',
          jurisdiction: j.id,
          statute: es.statute,
          fraction: flat.fraction,
          requiredPercent: round2(required),
          givenPercent: round2(spousePct),
        },
        ...idx,
      });
    }
  } else if (es.maxFraction) {
    const max = fractionValue(es.maxFraction) * 100;
    if (spousePct < max - EPS) {
      out.push({
        severity: 'info',
        rule: 'spouse.elective-share',
        message: `In ${at(j)} the surviving spouse may elect up to ${es.maxFraction} (${pct(max)}), depending on the length of the marriage (${es.statute}); this plan gives ${pct(spousePct)}. ${caveat}`,
        source,
        expected: `up to ${pct(max)}`,
        params: {
          variant: 'up-to',
          jurisdiction: j.id,
          statute: es.statute,
          maxFraction: es.maxFraction,
          maxPercent: round2(max),
          givenPercent: round2(spousePct),
        },
        ...idx,
      });
    }
  } else {
    out.push({
      severity: 'info',
      rule: 'spouse.elective-share',
      message: `In ${at(j)} the surviving spouse may elect against the will (${es.statute}): ${es.basis}. Check that this plan and other property leave the spouse at least that.`,
      source,
      params: { variant: 'unquantified', jurisdiction: j.id, statute: es.statute },
      ...idx,
    });
  }
}

function checkMaritalProperty(
  j: Jurisdiction,
  f: Family,
  given: 'community' | 'separate' | undefined,
  out: Finding[],
): void {
  if (given === 'separate') return;
  const mp = j.maritalProperty;
  const source = mainSource(j);
  if (mp.communityProperty === 'default' || given === 'community') {
    const optIn = mp.communityProperty === 'opt-in';
    out.push({
      severity: given === 'community' ? 'warning' : 'info',
      rule: 'spouse.community-property',
      message:
        `${f.spouse ? '' : 'If you are married: '}${optIn ? `${thePlace(j.name, f.spouse)} allows community property by agreement or trust, and you indicated community property` : `${f.spouse ? 'T' : 't'}he default regime in ${at(j)} is ${theRegime(mp.defaultRegime)}`}. ` +
        `The surviving spouse already owns half of the community property, so the plan can dispose only of your half and of your separate property; ` +
        `do not place the spouse's half of community assets in this contract without the spouse's consent.`,
      source,
      params: { variant: 'community', jurisdiction: j.id, spouseNamed: f.spouse ? 1 : 0, optIn: optIn ? 1 : 0 },
    });
    return;
  }
  if (!f.spouse) return;
  if (mp.communityProperty === 'deferred') {
    // Germany settles the gains at death by a larger statutory share (BGB § 1371(1)), not by a claim paid first.
    const increase = mp.deathSettlement === 'share-increase';
    const settled = increase
      ? "No claim to share the gains is settled first: the spouse's larger statutory share takes its place (the spouse's reserve here is computed on it). A spouse who refuses what the plan gives may instead claim the equalisation of gains, with a reserve computed on the unincreased share."
      : "The spouse's marital-property claim is settled before the estate is shared out.";
    out.push({
      severity: 'info',
      rule: 'spouse.deferred-community',
      message: `In ${at(j)} the default regime is ${theRegime(mp.defaultRegime)}: ${mp.summary} ${settled}`,
      source,
      params: { jurisdiction: j.id, variant: increase ? 'share-increase' : 'claim' },
    });
  } else if (mp.communityProperty === 'opt-in') {
    out.push({
      severity: 'info',
      rule: 'spouse.community-property',
      message: `${At(j)}: ${mp.summary} If you and your spouse hold assets that way, your spouse owns half of them and the plan can dispose only of your half.`,
      source,
      params: { variant: 'opt-in', jurisdiction: j.id },
    });
  }
}

function checkIslamicLaw(
  j: Jurisdiction,
  template: string,
  f: Family,
  beneficiaries: readonly PlanBeneficiary[],
  out: Finding[],
): void {
  const ia = j.islamicLaw;
  if (ia.applies === 'none' || template.startsWith('islamic')) return;
  const severity = ia.applies === 'all' ? 'warning' : 'info';
  out.push({
    severity,
    rule: 'islamic-law.applies',
    // The summary says whom the law governs ("Islamic inheritance law governs the estates of Muslims"): not twice.
    message: `In ${at(j)}, ${ia.summary.replace(/^The /, 'the ')} If Islamic law governs your estate, the Qur'anic heirs take fixed shares whatever this plan says; consider the islamic-mirth or islamic-wasiyyah template.`,
    source: mainSource(j),
    params: { jurisdiction: j.id, scope: ia.applies === 'all' ? 'all' : 'muslims' },
  });
  if (!ia.bequestLimit) return;
  const limit = fractionValue(ia.bequestLimit) * 100;
  const others = f.cls.flatMap((c, i) => (c === 'other' ? [i] : []));
  const toOthers = others.reduce((s, i) => s + beneficiaries[i]!.percentage, 0);
  if (toOthers > limit + EPS) {
    out.push({
      severity,
      rule: 'islamic-law.bequest-limit',
      message: `Where Islamic law applies, bequests to people who are not heirs are limited to ${ia.bequestLimit} of the estate (${pct(limit)}) unless the heirs consent; this plan gives ${pct(toOthers)} to beneficiaries who are not relatives.`,
      source: mainSource(j),
      expected: `at most ${pct(limit)}`,
      params: { fraction: ia.bequestLimit, limitPercent: round2(limit), givenPercent: round2(toOthers) },
      ...(others.length === 1 ? { beneficiaryIndex: others[0]! } : {}),
    });
  }
}

/**
 * Checks a plan (template and beneficiaries with relationship and percentage)
 * against a jurisdiction. `opts.maritalPropertyRegime` overrides the
 * jurisdiction's default regime ('separate' silences community-property findings;
 * 'community' turns them into warnings and selects community scenarios).
 * Rules: template.mismatch, forced-heirship.reserve, forced-heirship.usufruct, forced-heirship.unnamed-heirs,
 * forced-heirship.not-computed, spouse.elective-share, spouse.community-property,
 * spouse.deferred-community, islamic-law.applies, islamic-law.bequest-limit,
 * plan.relationship-missing.
 */
export function checkJurisdictionPlan(
  j: Jurisdiction,
  template: string,
  beneficiaries: PlanBeneficiary[],
  opts?: { maritalPropertyRegime?: 'community' | 'separate' },
): Finding[] {
  const out: Finding[] = [];
  const f = familyOf(j, beneficiaries);
  const given = opts?.maritalPropertyRegime;
  checkTemplate(j, template, out);
  checkForcedHeirship(j, f, regimeOf(j, given), beneficiaries, out);
  checkElectiveShare(j, f, beneficiaries, out);
  checkMaritalProperty(j, f, given, out);
  checkIslamicLaw(j, template, f, beneficiaries, out);
  const relevant = j.forcedHeirship.exists || j.spouseRights.electiveShare !== null;
  const missing = beneficiaries.filter((b) => !b.relationship || b.relationship.trim() === '').length;
  if (relevant && missing > 0) {
    out.push({
      severity: 'info',
      rule: 'plan.relationship-missing',
      message: `${missing} beneficiar${missing === 1 ? 'y has' : 'ies have'} no relationship; reserves and spouse rights can be checked only for beneficiaries whose relationship (spouse, son, daughter, father, mother...) is given.`,
      source: mainSource(j),
      params: { count: missing },
    });
  }
  return out;
}
