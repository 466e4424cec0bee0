/**
 * The law findings' sentences in English, and every locale's words together (`LAW_WORDS`: the type requires every
 * rule in every locale). English sits apart from ./law-words.ts so that the wizard, which shows English readers the
 * service's own message, does not carry it.
 */
import type { Locale } from './index.js';
import {
  electiveShareOf,
  basisOf,
  type Get,
  groupsOf,
  type LawFindingInput,
  type LawNames,
  type LawWords,
  problemsOf,
  READER_WORDS,
  sayWith,
} from './law-words.js';
import { thePlace } from './place-en.js';

/** The place of a finding as a sentence names it ("the Netherlands"), and at the start of one. */
const at = (g: Get) => thePlace(g.place());
const At = (g: Get) => thePlace(g.place(), true);

const en: LawWords = {
  groups: { descendants: 'the children (descendants)', spouse: 'the spouse', parents: 'the parents' },
  basis: { estate: 'of the estate', 'movable-estate': 'of the movable estate (crypto-assets are movable)' },
  problems: {
    'husband-and-wife': 'a husband and a wife cannot both be heirs of one person',
    one: (h) => `there can be only one ${h}`,
    wives: 'there can be at most four wives',
  },
  sentences: {
    'plan.percentage-precision': (g) =>
      `Beneficiary ${g.f.number(g.num('beneficiary'))}'s percentage has more than two decimals.`,
    'plan.percentages-sum': (g) => `The percentages sum to ${g.pct('totalPercent')}, not ${g.f.percent(100)}.`,
    'plan.relationship-missing': (g) =>
      `Beneficiaries without a relationship: ${g.f.number(g.num('count'))}. Reserves and spouse rights can be checked only for beneficiaries whose relationship is given.`,
    'template.mismatch': (g) => {
      const place = at(g);
      const recommended = `Recommended: ${g.f.and(g.str('recommended').split(',').map(g.template))}.`;
      switch (g.str('variant')) {
        case 'no-legal-force':
          return `Islamic inheritance law has no legal force in ${place}; the plan takes effect as an ordinary disposition under local law, including any forced heirship or spouse rights.`;
        case 'forced-heirship':
          return `${At(g)} has forced heirship; the “${g.template(g.str('template'))}” template assumes freedom of testation. Reserved heirs keep their claims whatever the plan says, so consider the “${g.template('civil-law')}” template.`;
        case 'no-reserve':
          return `${At(g)} has no forced heirship of the civil-law kind; the reserves of the “${g.template(g.str('template'))}” template are not required here. ${recommended}`;
        default:
          return `The “${g.template(g.str('template'))}” template is not among those recommended for ${place}. ${recommended}`;
      }
    },
    'forced-heirship.reserve': (g) => {
      const cond = g.flag('conditional') ? ' This applies only under conditions the law sets.' : '';
      if (g.str('variant') === 'per-child')
        return `In ${at(g)}, ${g.num('children') === 1 ? 'the one child named' : `each of the ${g.f.number(g.num('children'))} children named`} is entitled to at least ${g.pct('eachPercent')} ${basisOf(g, en)} as a reserved share; beneficiary ${g.f.number(g.num('beneficiary'))} receives ${g.pct('givenPercent')}.${cond}`;
      return `In ${at(g)}, the reserve of ${groupsOf(g, en, 'heirs')} is ${g.fraction('fraction')} ${basisOf(g, en)} (${g.pct('reservePercent')}); this plan gives ${g.pct('givenPercent')}. A will cannot take the reserve away: ${g.str('claim') === 'money' ? 'the heirs left short may claim the difference in money from the estate' : 'the heirs may claim reduction of the other gifts'}.${cond}`;
    },
    'forced-heirship.usufruct': (g) => {
      const cond = g.flag('conditional') ? ' This applies only under conditions the law sets.' : '';
      const what =
        'a right for life to use that part of the property or take its income, which burdens what the other heirs receive. It is not a share of ownership the contract can pay out.';
      if (g.str('variant') === 'not-named')
        return `If you are married: in ${at(g)} your spouse has by law a usufruct of ${g.fraction('fraction')} ${basisOf(g, en)}, whatever this plan says: ${what}${cond}`;
      return `In ${at(g)}, the reserve of ${groupsOf(g, en, 'heirs')} is a usufruct of ${g.fraction('fraction')} ${basisOf(g, en)}: ${what} This plan gives ${groupsOf(g, en, 'heirs')} ${g.pct('givenPercent')} in ownership; the usufruct may still be claimed unless that is worth as much.${cond}`;
    },
    'forced-heirship.not-computed': (g) => `${At(g)} has forced heirship, which this service does not compute.`,
    'forced-heirship.unnamed-heirs': (g) =>
      `${At(g)} reserves part of the estate for ${groupsOf(g, en, 'heirs')} in your situation. The plan names none; if you leave any, they keep their reserve even though the plan does not name them.`,
    'spouse.elective-share': (g) => {
      const place = at(g);
      const statute = g.str('statute');
      switch (g.str('variant')) {
        case 'no-spouse': {
          const what = electiveShareOf(g, (share) => `up to ${share}`, 'a statutory share');
          return `${At(g)} gives a surviving spouse an elective share (${statute}): if you are married, your spouse may claim ${what} whatever this plan says. It is computed on more than the assets in this plan, so other property passing to the spouse counts toward it.`;
        }
        case 'fixed':
          return `In ${place} the surviving spouse may elect to take ${g.fraction('fraction')} (${g.pct('requiredPercent')}) instead of what the will gives (${statute}); this plan gives ${g.pct('givenPercent')}.`;
        case 'up-to':
          return `In ${place} the surviving spouse may elect up to ${g.fraction('maxFraction')} (${g.pct('maxPercent')}), depending on the length of the marriage (${statute}); this plan gives ${g.pct('givenPercent')}.`;
        default:
          return `In ${place} the surviving spouse may elect against the will (${statute}). Check that this plan and other property leave the spouse what the law gives.`;
      }
    },
    'spouse.community-property': (g) => {
      if (g.str('variant') === 'opt-in')
        return `${At(g)} allows community property by agreement. If you and your spouse hold assets that way, your spouse owns half of them and the plan can dispose only of your half.`;
      const lead = g.flag('spouseNamed') ? '' : 'If you are married: ';
      const regime = g.flag('optIn')
        ? `${at(g)} allows community property by agreement or trust, and you indicated community property.`
        : `the default regime in ${at(g)} is community property.`;
      const first = lead ? `${lead}${regime}` : `${regime[0]!.toUpperCase()}${regime.slice(1)}`;
      return `${first} The surviving spouse already owns half of the community property, so the plan can dispose only of your half and of your separate property; do not place the spouse's half in this contract without the spouse's consent.`;
    },
    'spouse.deferred-community': (g) =>
      g.str('variant') === 'share-increase'
        ? `The default regime in ${at(g)} does not share out the spouses' gains at death: it raises the spouse's statutory share instead. A spouse who refuses what the plan gives may instead claim the equalisation of gains, with a reserve computed on the unincreased share.`
        : `The default regime in ${at(g)} shares the spouses' gains when the marriage ends: the spouse's claim is settled before the estate is shared out.`,
    'islamic-law.applies': (g) =>
      `In ${at(g)} Islamic inheritance law governs ${g.str('scope') === 'all' ? 'estates' : 'the estates of Muslims'}. If it governs yours, the Qur'anic heirs take fixed shares whatever this plan says; consider the “${g.template('islamic-mirth')}” or “${g.template('islamic-wasiyyah')}” template.`,
    'islamic-law.bequest-limit': (g) =>
      `Where Islamic law applies, bequests to people who are not heirs are limited to ${g.fraction('fraction')} of the estate (${g.pct('limitPercent')}) unless the heirs consent; this plan gives ${g.pct('givenPercent')} to beneficiaries who are not relatives.`,
    'faraid.school': (g) => {
      const school = g.school();
      if (g.has('jurisdictionSchool')) {
        return g.str('jurisdictionSchool') === 'code'
          ? `${At(g)} applies its own code; the ${school} school applied here was chosen by the request.`
          : `${At(g)} follows the ${g.school('jurisdictionSchool')} school; the ${school} school applied here was chosen by the request and may differ from what a court there would apply.`;
      }
      switch (g.str('chosenBy')) {
        case 'jurisdiction':
          return `Fara'id checked by the ${school} school, the one ${at(g)} follows.`;
        case 'caller':
          return `Fara'id checked by the ${school} school, as chosen.`;
        default:
          return `Fara'id checked by the ${school} school, the default: no school is recorded for ${at(g)}.`;
      }
    },
    'faraid.school-not-computed': (g) =>
      `The ${g.school()} school applies here; this calculator does not compute it yet, so the shares were not checked.`,
    'faraid.public-treasury': (g) =>
      `The ${g.heir()} is the only heir and, with no radd to a spouse, keeps the fixed share; ${g.pct('treasuryPercent')} goes to the public treasury (bayt al-mal).${g.flag('treasuryNamed') ? '' : ' Add a beneficiary with the relationship “public treasury”, or apply radd to the spouse.'}`,
    'faraid.share-mismatch': (g) =>
      g.str('variant') === 'treasury'
        ? `The public treasury is given ${g.pct('givenPercent')} but its part is ${g.pct('expectedPercent')}${g.flag('carriedEarlier') ? ' (already carried by an earlier beneficiary)' : ''}.`
        : `The ${g.heir()} is given ${g.pct('givenPercent')} but the fara'id share (${g.school()}) is ${g.pct('expectedPercent')}${g.has('leftPercent') ? ` (its share of the ${g.pct('leftPercent')} left after bequests)` : ''}.`,
    'faraid.excluded-heir': (g) => `The ${g.heir()} inherits nothing: excluded by the ${g.heir('by')}.`,
    'faraid.missing-heir': (g) =>
      `The ${g.heir()}, a surviving heir, is not a beneficiary of the plan but is entitled to ${g.pct('expectedPercent')} of the estate.`,
    'faraid.assumption': (g) =>
      `Shares computed by fara'id (${g.school()} school) on the assumption that the heirs listed are all the surviving heirs; any other surviving heir changes them.`,
    'faraid.non-heir': (g) =>
      g.str('variant') === 'treasury'
        ? 'The public treasury takes a part only when a husband or wife is the only heir and no radd to the spouse applies; here it takes nothing.'
        : `The relationship of beneficiary ${g.f.number(g.num('beneficiary'))} is not an heir by fara'id, and a mirath plan gives only to heirs. Use the “${g.template('islamic-wasiyyah')}” template to leave up to one third to non-heirs.`,
    'faraid.no-heirs': (g) =>
      g.flag('mirth')
        ? "No beneficiary is an heir by fara'id; a mirath plan divides the estate among heirs."
        : "No beneficiary is an heir by fara'id; the whole plan is bequests.",
    'faraid.invalid-heirs': (g) => `The beneficiaries' relationships are impossible together: ${problemsOf(g, en)}.`,
    'faraid.distant-kindred': () =>
      'The shares cannot be checked: the shares of the distant kindred named cannot be decided from their relationships alone.',
    'islamic.assumed-relationship': (g) =>
      `The relationship of beneficiary ${g.f.number(g.num('beneficiary'))} is read as ${g.heir()}.`,
    'islamic.ambiguous-relationship': (g) =>
      `The relationship of beneficiary ${g.f.number(g.num('beneficiary'))} is ambiguous under fara'id: say which of ${g.f.or(g.heirs('candidates'))} is meant. The shares are checked once it is known.`,
    'islamic.unmapped-relationship': (g) => {
      const who = `beneficiary ${g.f.number(g.num('beneficiary'))}`;
      const tail = g.flag('mirth') ? '' : ' Treated as a non-heir legatee.';
      return g.str('variant') === 'missing'
        ? `No relationship given for ${who}; an Islamic template needs each beneficiary's relationship to the deceased.${tail}`
        : `The relationship of ${who} cannot be mapped to an heir of fara'id.${g.flag('mirth') ? ' Use a known term.' : tail}`;
    },
    'wasiyyah.bequest-to-heir': (g) =>
      `The ${g.heir()} receives ${g.pct('givenPercent')} instead of the fara'id share ${g.pct('expectedPercent')}: the extra is a bequest to an heir, valid only with the other heirs' consent${g.flag('consent') ? ', which has been given' : ''}.`,
    'wasiyyah.excluded-heir-legatee': (g) =>
      `The ${g.heir()} is excluded from inheriting by the ${g.heir('by')} and so may receive a bequest.`,
    'wasiyyah.over-one-third': (g) =>
      `Bequests total ${g.pct('bequestPercent')}, more than one third of the estate; the excess is valid only with the heirs' consent${g.flag('consent') ? ', which has been given' : ''}.`,
    'wasiyyah.no-bequest': () => "No beneficiary is a legatee; the plan is a plain fara'id division.",
  },
};

export const LAW_WORDS: Record<Locale, LawWords> = { en, ...READER_WORDS };

/** The sentence for a finding's rule and params in any locale, English included, or undefined when something is missing. */
export function sayLaw(finding: LawFindingInput, locale: Locale, names: LawNames): string | undefined {
  return sayWith(LAW_WORDS[locale], finding, locale, names);
}
