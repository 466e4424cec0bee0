/**
 * Words for the law check's findings (src/law: check_plan, and the law warnings of validate_plan and
 * generate_contract), by the finding's `rule`, one catalogue per locale. Each sentence is built from the finding's
 * `params` (figures and short strings as data), never from its English message, which the service keeps for the API.
 * Arabic, Spanish and French are here; English is in ./law-words-en.ts, which gathers every locale (`LAW_WORDS`).
 *
 * Names of heir types, jurisdictions, templates and schools are not here: the caller gives them (`LawNames`), from
 * the words it already shows a person (the wizard's relationship, template and school labels, and its place names).
 * A finding whose params name something the caller has no word for is not said here: it stays in English, and the
 * caller marks it so.
 */
import type { NumberFormats } from './catalog.js';
import { type Locale, numberFormats } from './index.js';

/** The params of a finding: figures and short strings, as data. */
export type LawParams = Record<string, number | string>;

/** Every rule of the law check; each has words in every locale (the type says so). */
export const LAW_RULES = [
  'plan.percentage-precision',
  'plan.percentages-sum',
  'plan.relationship-missing',
  'template.mismatch',
  'forced-heirship.reserve',
  'forced-heirship.not-computed',
  'forced-heirship.unnamed-heirs',
  'spouse.elective-share',
  'spouse.community-property',
  'spouse.deferred-community',
  'islamic-law.applies',
  'islamic-law.bequest-limit',
  'faraid.school',
  'faraid.school-not-computed',
  'faraid.public-treasury',
  'faraid.share-mismatch',
  'faraid.excluded-heir',
  'faraid.missing-heir',
  'faraid.assumption',
  'faraid.non-heir',
  'faraid.no-heirs',
  'faraid.invalid-heirs',
  'faraid.distant-kindred',
  'islamic.assumed-relationship',
  'islamic.ambiguous-relationship',
  'islamic.unmapped-relationship',
  'wasiyyah.bequest-to-heir',
  'wasiyyah.excluded-heir-legatee',
  'wasiyyah.over-one-third',
  'wasiyyah.no-bequest',
] as const;
export type LawRule = (typeof LAW_RULES)[number];

/** The names a sentence needs, in the reader's language; undefined where the caller has no word for one. */
export interface LawNames {
  /** A fara'id heir type by its key ("son", "fullBrother"). */
  heir(key: string): string | undefined;
  /** A jurisdiction by its id ("fr", "us-ca"). */
  place(id: string): string | undefined;
  /** An inheritance template by its id ("civil-law"). */
  template(id: string): string | undefined;
  /** A school of Islamic law by its id ("hanafi"). */
  school(id: string): string | undefined;
}

/** Number formats, plus lists joined by "and". */
export interface LawFormats extends NumberFormats {
  and(items: string[]): string;
}

/** What a sentence reads its params and names through; each throws when a param or a name is missing. */
export interface Get {
  num(key: string): number;
  str(key: string): string;
  flag(key: string): boolean;
  pct(key: string): string;
  heir(key?: string): string;
  /** An heir type by its key. */
  heirOf(heirKey: string): string;
  /** The heir types of a comma-separated param. */
  heirs(key: string): string[];
  place(): string;
  template(id: string): string;
  school(key?: string): string;
  /** A fraction param ("1/2") in the reader's digits. */
  fraction(key: string): string;
  has(key: string): boolean;
  f: LawFormats;
}

export type SayLaw = (g: Get) => string;

class Unsaid extends Error {}

function getter(p: LawParams, f: LawFormats, n: LawNames): Get {
  const num = (key: string): number => {
    const v = p[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Unsaid(`param ${key} is not a number`);
    return v;
  };
  const str = (key: string): string => {
    const v = p[key];
    if (typeof v !== 'string') throw new Unsaid(`param ${key} is not a string`);
    return v;
  };
  const name = (v: string | undefined, what: string): string => {
    if (!v) throw new Unsaid(`no word for ${what}`);
    return v;
  };
  const heirOf = (k: string) => name(n.heir(k), `heir ${k}`);
  const heir = (key = 'heir') => heirOf(str(key));
  return {
    num,
    str,
    flag: (key) => p[key] === 1,
    pct: (key) => f.percent(num(key)),
    heir,
    heirOf,
    heirs: (key) => str(key).split(',').map(heirOf),
    place: () => name(n.place(str('jurisdiction')), `jurisdiction ${str('jurisdiction')}`),
    template: (id) => name(n.template(id), `template ${id}`),
    school: (key = 'school') => name(n.school(str(key)), `school ${str(key)}`),
    fraction: (key) => {
      const m = /^(\d+)\/(\d+)$/.exec(str(key));
      if (!m) throw new Unsaid(`param ${key} is not a fraction`);
      return `${f.number(Number(m[1]))}/${f.number(Number(m[2]))}`;
    },
    has: (key) => p[key] !== undefined,
    f,
  };
}

/** The words of each locale that are the law's own (heir groups of a reserve, bases, invalid families). */
export interface LawWords {
  /** The reserved heir groups of a jurisdiction's data. */
  groups: Record<string, string>;
  /** What a reserve is computed on. */
  basis: Record<string, string>;
  /** Why heirs cannot be one family. */
  problems: { 'husband-and-wife': string; one: (heir: string) => string; wives: string };
  sentences: Record<LawRule, SayLaw>;
}

export const groupsOf = (g: Get, words: LawWords, key: string) =>
  g.f.and(
    g
      .str(key)
      .split(',')
      .map((k) => {
        const w = words.groups[k];
        if (!w) throw new Unsaid(`no word for heir group ${k}`);
        return w;
      }),
  );
export const basisOf = (g: Get, words: LawWords) => {
  const w = words.basis[g.str('basis')];
  if (!w) throw new Unsaid('no word for the basis');
  return w;
};
export const problemsOf = (g: Get, words: LawWords) =>
  g.f.and(
    g
      .str('problems')
      .split(',')
      .map((code) => {
        if (code === 'husband-and-wife' || code === 'wives') return words.problems[code];
        const m = /^one:(\w+)$/.exec(code);
        if (!m) throw new Unsaid(`unknown problem ${code}`);
        return words.problems.one(g.heirOf(m[1]!));
      }),
  );

const lower = (s: string) => s.toLocaleLowerCase();

const fr: LawWords = {
  groups: { descendants: 'les enfants (descendants)', spouse: 'le conjoint', parents: 'les parents' },
  basis: {
    estate: 'du patrimoine',
    'movable-estate': 'du patrimoine mobilier (les crypto-actifs sont des meubles)',
  },
  problems: {
    'husband-and-wife': 'un mari et une épouse ne peuvent pas être tous deux héritiers d’une même personne',
    one: (h) => `« ${h} » : un seul possible`,
    wives: 'il peut y avoir au plus quatre épouses',
  },
  sentences: {
    'plan.percentage-precision': (g) =>
      `Le pourcentage du bénéficiaire ${g.f.number(g.num('beneficiary'))} a plus de deux décimales.`,
    'plan.percentages-sum': (g) => `Les pourcentages totalisent ${g.pct('totalPercent')}, et non ${g.f.percent(100)}.`,
    'plan.relationship-missing': (g) =>
      `Bénéficiaires sans lien de parenté indiqué : ${g.f.number(g.num('count'))}. La réserve et les droits du conjoint ne peuvent être vérifiés que pour les bénéficiaires dont le lien est indiqué.`,
    'template.mismatch': (g) => {
      const place = g.place();
      const quoted = (id: string) => `« ${g.template(id)} »`;
      const recommended = `Modèles recommandés : ${g.f.and(g.str('recommended').split(',').map(quoted))}.`;
      switch (g.str('variant')) {
        case 'no-legal-force':
          return `${place} : le droit successoral islamique n’y a pas force de loi ; le plan y vaut comme une disposition ordinaire du droit local, réserve héréditaire et droits du conjoint compris.`;
        case 'forced-heirship':
          return `${place} : la loi y prévoit une réserve héréditaire ; le modèle ${quoted(g.str('template'))} suppose la liberté de tester. Les héritiers réservataires gardent leurs droits quoi que dise le plan : envisagez le modèle ${quoted('civil-law')}.`;
        case 'no-reserve':
          return `${place} : la loi n’y prévoit pas de réserve héréditaire de type civiliste ; les réserves du modèle ${quoted(g.str('template'))} n’y sont pas exigées. ${recommended}`;
        default:
          return `${place} : le modèle ${quoted(g.str('template'))} ne fait pas partie des modèles recommandés. ${recommended}`;
      }
    },
    'forced-heirship.reserve': (g) => {
      const cond = g.flag('conditional') ? ' Cela ne s’applique que dans les conditions fixées par la loi.' : '';
      if (g.str('variant') === 'per-child')
        return `${g.place()} : chacun des ${g.f.number(g.num('children'))} enfants nommés a droit à au moins ${g.pct('eachPercent')} ${basisOf(g, fr)} au titre de la réserve ; le bénéficiaire ${g.f.number(g.num('beneficiary'))} reçoit ${g.pct('givenPercent')}.${cond}`;
      return `${g.place()} : la loi réserve ${g.fraction('fraction')} ${basisOf(g, fr)} (${g.pct('reservePercent')}) à ces héritiers : ${groupsOf(g, fr, 'heirs')} ; ce plan leur donne ${g.pct('givenPercent')}. Un testament ne peut pas leur retirer la réserve : ils peuvent demander la réduction des autres libéralités.${cond}`;
    },
    'forced-heirship.not-computed': (g) =>
      `${g.place()} : la loi y prévoit une réserve héréditaire, que ce service ne calcule pas.`,
    'forced-heirship.unnamed-heirs': (g) =>
      `${g.place()} : dans votre situation, la loi réserve une part du patrimoine à ces héritiers : ${groupsOf(g, fr, 'heirs')}. Le plan n’en nomme aucun ; s’il y en a, ils gardent leur réserve même si le plan ne les nomme pas.`,
    'spouse.elective-share': (g) => {
      const place = g.place();
      const statute = g.str('statute');
      switch (g.str('variant')) {
        case 'no-spouse': {
          const what = g.has('fraction')
            ? `${g.fraction('fraction')} (${g.pct('requiredPercent')})`
            : g.has('maxFraction')
              ? `jusqu’à ${g.fraction('maxFraction')} (${g.pct('maxPercent')})`
              : 'une part fixée par la loi';
          return `${place} : le conjoint survivant y dispose d’une part à option (${statute}) : si vous êtes marié, votre conjoint peut réclamer ${what} quoi que dise ce plan. Elle se calcule sur plus que les biens de ce plan : les autres biens qui lui reviennent en tiennent lieu en partie.`;
        }
        case 'fixed':
          return `${place} : le conjoint survivant peut choisir de prendre ${g.fraction('fraction')} (${g.pct('requiredPercent')}) au lieu de ce que lui donne le testament (${statute}) ; ce plan lui donne ${g.pct('givenPercent')}.`;
        case 'up-to':
          return `${place} : le conjoint survivant peut choisir de prendre jusqu’à ${g.fraction('maxFraction')} (${g.pct('maxPercent')}), selon la durée du mariage (${statute}) ; ce plan lui donne ${g.pct('givenPercent')}.`;
        default:
          return `${place} : le conjoint survivant peut choisir d’écarter le testament (${statute}). Vérifiez que ce plan et vos autres biens lui laissent ce que la loi lui donne.`;
      }
    },
    'spouse.community-property': (g) => {
      if (g.str('variant') === 'opt-in')
        return `${g.place()} : la communauté de biens y est possible par convention. Si votre conjoint et vous détenez des biens ainsi, la moitié lui appartient et le plan ne peut disposer que de votre moitié.`;
      const regime = g.flag('optIn')
        ? `la loi (${g.place()}) permet la communauté de biens par convention ou fiducie, et vous avez indiqué être en communauté.`
        : `le régime légal en vigueur (${g.place()}) est la communauté de biens.`;
      const first = g.flag('spouseNamed')
        ? `${regime[0]!.toUpperCase()}${regime.slice(1)}`
        : `Si vous êtes marié, ${regime}`;
      return `${first} Le conjoint survivant possède déjà la moitié des biens communs : le plan ne peut disposer que de votre moitié et de vos biens propres ; n’y placez pas la moitié de votre conjoint sans son accord.`;
    },
    'spouse.deferred-community': (g) =>
      `${g.place()} : le régime légal y partage les acquêts des époux à la fin du mariage ; la créance du conjoint est réglée avant le partage de la succession.`,
    'islamic-law.applies': (g) =>
      `${g.place()} : le droit successoral islamique y régit ${g.str('scope') === 'all' ? 'les successions' : 'les successions des musulmans'}. S’il régit la vôtre, les héritiers coraniques prennent des parts fixes quoi que dise ce plan ; envisagez le modèle « ${g.template('islamic-mirth')} » ou « ${g.template('islamic-wasiyyah')} ».`,
    'islamic-law.bequest-limit': (g) =>
      `Là où le droit islamique s’applique, les legs à des non-héritiers sont limités à ${g.fraction('fraction')} du patrimoine (${g.pct('limitPercent')}) sauf accord des héritiers ; ce plan donne ${g.pct('givenPercent')} à des bénéficiaires qui ne sont pas de la famille.`,
    'faraid.school': (g) => {
      const school = lower(g.school());
      if (g.has('jurisdictionSchool')) {
        return g.str('jurisdictionSchool') === 'code'
          ? `${g.place()} : la loi y suit son propre code ; l’école ${school} appliquée ici a été choisie par la demande.`
          : `${g.place()} : la loi y suit l’école ${lower(g.school('jurisdictionSchool'))} ; l’école ${school} appliquée ici a été choisie par la demande et peut différer de ce qu’un tribunal y appliquerait.`;
      }
      switch (g.str('chosenBy')) {
        case 'jurisdiction':
          return `Fara’id vérifié selon l’école ${school}, celle que retient la loi (${g.place()}).`;
        case 'caller':
          return `Fara’id vérifié selon l’école ${school}, celle qui a été choisie.`;
        default:
          return `Fara’id vérifié selon l’école ${school}, par défaut : aucune école n’est enregistrée (${g.place()}).`;
      }
    },
    'faraid.school-not-computed': (g) =>
      `L’école ${lower(g.school())} s’applique ici ; ce calculateur ne la calcule pas encore, les parts n’ont donc pas été vérifiées.`,
    'faraid.public-treasury': (g) =>
      `Seul héritier : « ${g.heir()} ». Sans radd au conjoint, sa part reste la part fixe ; ${g.pct('treasuryPercent')} revient au trésor public (bayt al-mal).${g.flag('treasuryNamed') ? '' : ' Ajoutez un bénéficiaire avec le lien « public treasury », ou appliquez le radd au conjoint.'}`,
    'faraid.share-mismatch': (g) =>
      g.str('variant') === 'treasury'
        ? `Le trésor public reçoit ${g.pct('givenPercent')} mais sa part est de ${g.pct('expectedPercent')}${g.flag('carriedEarlier') ? ' (déjà portée par un bénéficiaire précédent)' : ''}.`
        : `« ${g.heir()} » reçoit ${g.pct('givenPercent')} mais sa part du fara’id (école ${lower(g.school())}) est de ${g.pct('expectedPercent')}${g.has('leftPercent') ? ` (sa part des ${g.pct('leftPercent')} qui restent après les legs)` : ''}.`,
    'faraid.excluded-heir': (g) => `« ${g.heir()} » n’hérite de rien : « ${g.heir('by')} » l’exclut.`,
    'faraid.missing-heir': (g) =>
      `« ${g.heir()} », héritier survivant, n’est pas bénéficiaire du plan mais a droit à ${g.pct('expectedPercent')} du patrimoine.`,
    'faraid.assumption': (g) =>
      `Parts calculées selon le fara’id (école ${lower(g.school())}) en supposant que les héritiers indiqués sont tous les héritiers survivants ; tout autre héritier survivant les change.`,
    'faraid.non-heir': (g) =>
      g.str('variant') === 'treasury'
        ? 'Le trésor public ne prend une part que si un mari ou une épouse est le seul héritier sans radd au conjoint ; ici il ne prend rien.'
        : `Le lien du bénéficiaire ${g.f.number(g.num('beneficiary'))} n’en fait pas un héritier selon le fara’id, et un plan de mirath ne donne qu’aux héritiers. Utilisez le modèle « ${g.template('islamic-wasiyyah')} » pour léguer jusqu’à un tiers à des non-héritiers.`,
    'faraid.no-heirs': (g) =>
      g.flag('mirth')
        ? 'Aucun bénéficiaire n’est héritier selon le fara’id ; un plan de mirath partage le patrimoine entre les héritiers.'
        : 'Aucun bénéficiaire n’est héritier selon le fara’id ; tout le plan est fait de legs.',
    'faraid.invalid-heirs': (g) => `Les liens des bénéficiaires sont impossibles ensemble : ${problemsOf(g, fr)}.`,
    'faraid.distant-kindred': () =>
      'Les parts ne peuvent pas être vérifiées : celles des parents éloignés nommés ne se déduisent pas de leurs seuls liens.',
    'islamic.assumed-relationship': (g) =>
      `Le lien du bénéficiaire ${g.f.number(g.num('beneficiary'))} est lu comme « ${g.heir()} ».`,
    'islamic.ambiguous-relationship': (g) =>
      `Le lien du bénéficiaire ${g.f.number(g.num('beneficiary'))} est ambigu selon le fara’id : précisez lequel est visé, ${g.f.or(g.heirs('candidates').map((h) => `« ${h} »`))}.`,
    'islamic.unmapped-relationship': (g) => {
      const who = `bénéficiaire ${g.f.number(g.num('beneficiary'))}`;
      const tail = g.flag('mirth') ? '' : ' Il est traité comme un légataire non héritier.';
      return g.str('variant') === 'missing'
        ? `Aucun lien indiqué pour le ${who} ; un modèle islamique demande le lien de chaque bénéficiaire avec le défunt.${tail}`
        : `Le lien du ${who} ne correspond à aucun héritier du fara’id.${g.flag('mirth') ? ' Utilisez un terme connu.' : tail}`;
    },
    'wasiyyah.bequest-to-heir': (g) =>
      `« ${g.heir()} » reçoit ${g.pct('givenPercent')} au lieu de sa part du fara’id, ${g.pct('expectedPercent')} : le surplus est un legs à un héritier, valable seulement avec l’accord des autres héritiers${g.flag('consent') ? ', qui a été donné' : ''}.`,
    'wasiyyah.excluded-heir-legatee': (g) =>
      `« ${g.heir('by')} » exclut « ${g.heir()} » de l’héritage ; « ${g.heir()} » peut donc recevoir un legs.`,
    'wasiyyah.over-one-third': (g) =>
      `Les legs totalisent ${g.pct('bequestPercent')}, plus d’un tiers du patrimoine ; l’excédent n’est valable qu’avec l’accord des héritiers${g.flag('consent') ? ', qui a été donné' : ''}.`,
    'wasiyyah.no-bequest': () => 'Aucun bénéficiaire n’est légataire ; le plan est un simple partage selon le fara’id.',
  },
};

const es: LawWords = {
  groups: { descendants: 'los hijos (descendientes)', spouse: 'el cónyuge', parents: 'los padres' },
  basis: {
    estate: 'del patrimonio',
    'movable-estate': 'del patrimonio mueble (los criptoactivos son bienes muebles)',
  },
  problems: {
    'husband-and-wife': 'un esposo y una esposa no pueden ser ambos herederos de una misma persona',
    one: (h) => `«${h}»: solo puede haber uno`,
    wives: 'puede haber como máximo cuatro esposas',
  },
  sentences: {
    'plan.percentage-precision': (g) =>
      `El porcentaje del beneficiario ${g.f.number(g.num('beneficiary'))} tiene más de dos decimales.`,
    'plan.percentages-sum': (g) => `Los porcentajes suman ${g.pct('totalPercent')}, no ${g.f.percent(100)}.`,
    'plan.relationship-missing': (g) =>
      `Beneficiarios sin parentesco indicado: ${g.f.number(g.num('count'))}. La legítima y los derechos del cónyuge solo pueden comprobarse para los beneficiarios cuyo parentesco se indica.`,
    'template.mismatch': (g) => {
      const place = g.place();
      const quoted = (id: string) => `«${g.template(id)}»`;
      const recommended = `Modelos recomendados: ${g.f.and(g.str('recommended').split(',').map(quoted))}.`;
      switch (g.str('variant')) {
        case 'no-legal-force':
          return `${place}: la ley sucesoria islámica no tiene fuerza legal allí; el plan vale como una disposición ordinaria de la ley local, incluidas la legítima y los derechos del cónyuge que haya.`;
        case 'forced-heirship':
          return `${place}: la ley establece una legítima; el modelo ${quoted(g.str('template'))} supone libertad para testar. Los herederos forzosos conservan sus derechos diga lo que diga el plan: considere el modelo ${quoted('civil-law')}.`;
        case 'no-reserve':
          return `${place}: la ley no establece una legítima de tipo civil; las reservas del modelo ${quoted(g.str('template'))} no son obligatorias allí. ${recommended}`;
        default:
          return `${place}: el modelo ${quoted(g.str('template'))} no está entre los recomendados. ${recommended}`;
      }
    },
    'forced-heirship.reserve': (g) => {
      const cond = g.flag('conditional') ? ' Esto solo se aplica en las condiciones que fija la ley.' : '';
      if (g.str('variant') === 'per-child')
        return `${g.place()}: cada uno de los ${g.f.number(g.num('children'))} hijos nombrados tiene derecho al menos a ${g.pct('eachPercent')} ${basisOf(g, es)} como legítima; el beneficiario ${g.f.number(g.num('beneficiary'))} recibe ${g.pct('givenPercent')}.${cond}`;
      return `${g.place()}: la ley reserva ${g.fraction('fraction')} ${basisOf(g, es)} (${g.pct('reservePercent')}) a estos herederos: ${groupsOf(g, es, 'heirs')}; este plan les da ${g.pct('givenPercent')}. Un testamento no puede quitarles la legítima: pueden pedir la reducción de las demás disposiciones.${cond}`;
    },
    'forced-heirship.not-computed': (g) => `${g.place()}: la ley establece una legítima, que este servicio no calcula.`,
    'forced-heirship.unnamed-heirs': (g) =>
      `${g.place()}: en su situación, la ley reserva parte del patrimonio a estos herederos: ${groupsOf(g, es, 'heirs')}. El plan no nombra a ninguno; si los hay, conservan su legítima aunque el plan no los nombre.`,
    'spouse.elective-share': (g) => {
      const place = g.place();
      const statute = g.str('statute');
      switch (g.str('variant')) {
        case 'no-spouse': {
          const what = g.has('fraction')
            ? `${g.fraction('fraction')} (${g.pct('requiredPercent')})`
            : g.has('maxFraction')
              ? `hasta ${g.fraction('maxFraction')} (${g.pct('maxPercent')})`
              : 'una parte fijada por la ley';
          return `${place}: el cónyuge supérstite tiene una parte electiva (${statute}): si está casado, su cónyuge puede reclamar ${what} diga lo que diga este plan. Se calcula sobre más que los bienes de este plan, así que cuentan otros bienes que reciba.`;
        }
        case 'fixed':
          return `${place}: el cónyuge supérstite puede optar por recibir ${g.fraction('fraction')} (${g.pct('requiredPercent')}) en lugar de lo que le da el testamento (${statute}); este plan le da ${g.pct('givenPercent')}.`;
        case 'up-to':
          return `${place}: el cónyuge supérstite puede optar por recibir hasta ${g.fraction('maxFraction')} (${g.pct('maxPercent')}), según la duración del matrimonio (${statute}); este plan le da ${g.pct('givenPercent')}.`;
        default:
          return `${place}: el cónyuge supérstite puede optar por apartarse del testamento (${statute}). Compruebe que este plan y sus demás bienes le dejan lo que la ley le da.`;
      }
    },
    'spouse.community-property': (g) => {
      if (g.str('variant') === 'opt-in')
        return `${g.place()}: la comunidad de bienes es posible por acuerdo. Si usted y su cónyuge tienen bienes así, la mitad es de su cónyuge y el plan solo puede disponer de su mitad.`;
      const regime = g.flag('optIn')
        ? `la ley (${g.place()}) permite la comunidad de bienes por acuerdo o fideicomiso, y usted ha indicado comunidad de bienes.`
        : `el régimen legal vigente (${g.place()}) es la comunidad de bienes.`;
      const first = g.flag('spouseNamed')
        ? `${regime[0]!.toUpperCase()}${regime.slice(1)}`
        : `Si está casado, ${regime}`;
      return `${first} El cónyuge supérstite ya es dueño de la mitad de los bienes comunes: el plan solo puede disponer de su mitad y de sus bienes privativos; no ponga en este contrato la mitad de su cónyuge sin su consentimiento.`;
    },
    'spouse.deferred-community': (g) =>
      `${g.place()}: el régimen legal reparte las ganancias de los cónyuges al terminar el matrimonio; el crédito del cónyuge se liquida antes de repartir la herencia.`,
    'islamic-law.applies': (g) =>
      `${g.place()}: la ley sucesoria islámica rige ${g.str('scope') === 'all' ? 'las herencias' : 'las herencias de los musulmanes'}. Si rige la suya, los herederos coránicos reciben partes fijas diga lo que diga este plan; considere el modelo «${g.template('islamic-mirth')}» o «${g.template('islamic-wasiyyah')}».`,
    'islamic-law.bequest-limit': (g) =>
      `Donde se aplica la ley islámica, los legados a quienes no son herederos se limitan a ${g.fraction('fraction')} del patrimonio (${g.pct('limitPercent')}) salvo que los herederos consientan; este plan da ${g.pct('givenPercent')} a beneficiarios que no son familiares.`,
    'faraid.school': (g) => {
      const school = lower(g.school());
      if (g.has('jurisdictionSchool')) {
        return g.str('jurisdictionSchool') === 'code'
          ? `${g.place()}: la ley sigue su propio código; la escuela ${school} aplicada aquí la eligió la solicitud.`
          : `${g.place()}: la ley sigue la escuela ${lower(g.school('jurisdictionSchool'))}; la escuela ${school} aplicada aquí la eligió la solicitud y puede diferir de lo que aplicaría un tribunal de allí.`;
      }
      switch (g.str('chosenBy')) {
        case 'jurisdiction':
          return `Fara’id comprobado según la escuela ${school}, la que sigue la ley (${g.place()}).`;
        case 'caller':
          return `Fara’id comprobado según la escuela ${school}, la elegida.`;
        default:
          return `Fara’id comprobado según la escuela ${school}, por defecto: no hay ninguna escuela registrada (${g.place()}).`;
      }
    },
    'faraid.school-not-computed': (g) =>
      `Aquí se aplica la escuela ${lower(g.school())}; esta calculadora aún no la calcula, así que las partes no se han comprobado.`,
    'faraid.public-treasury': (g) =>
      `Único heredero: «${g.heir()}». Sin radd al cónyuge, su parte sigue siendo la parte fija; ${g.pct('treasuryPercent')} va al tesoro público (bayt al-mal).${g.flag('treasuryNamed') ? '' : ' Añada un beneficiario con el parentesco «public treasury», o aplique el radd al cónyuge.'}`,
    'faraid.share-mismatch': (g) =>
      g.str('variant') === 'treasury'
        ? `El tesoro público recibe ${g.pct('givenPercent')} pero su parte es ${g.pct('expectedPercent')}${g.flag('carriedEarlier') ? ' (ya la lleva un beneficiario anterior)' : ''}.`
        : `«${g.heir()}» recibe ${g.pct('givenPercent')} pero su parte del fara’id (escuela ${lower(g.school())}) es ${g.pct('expectedPercent')}${g.has('leftPercent') ? ` (su parte del ${g.pct('leftPercent')} que queda tras los legados)` : ''}.`,
    'faraid.excluded-heir': (g) => `«${g.heir()}» no hereda nada: «${g.heir('by')}» le excluye de la herencia.`,
    'faraid.missing-heir': (g) =>
      `«${g.heir()}», heredero superviviente, no es beneficiario del plan pero tiene derecho al ${g.pct('expectedPercent')} del patrimonio.`,
    'faraid.assumption': (g) =>
      `Partes calculadas según el fara’id (escuela ${lower(g.school())}) suponiendo que los herederos indicados son todos los herederos supervivientes; cualquier otro heredero superviviente las cambia.`,
    'faraid.non-heir': (g) =>
      g.str('variant') === 'treasury'
        ? 'El tesoro público solo recibe una parte cuando un esposo o una esposa es el único heredero y no se aplica el radd al cónyuge; aquí no recibe nada.'
        : `El parentesco del beneficiario ${g.f.number(g.num('beneficiary'))} no lo hace heredero según el fara’id, y un plan de mirath solo da a herederos. Use el modelo «${g.template('islamic-wasiyyah')}» para legar hasta un tercio a quienes no son herederos.`,
    'faraid.no-heirs': (g) =>
      g.flag('mirth')
        ? 'Ningún beneficiario es heredero según el fara’id; un plan de mirath reparte el patrimonio entre herederos.'
        : 'Ningún beneficiario es heredero según el fara’id; todo el plan son legados.',
    'faraid.invalid-heirs': (g) =>
      `Los parentescos de los beneficiarios son imposibles a la vez: ${problemsOf(g, es)}.`,
    'faraid.distant-kindred': () =>
      'Las partes no pueden comprobarse: las de los parientes lejanos nombrados no se deducen solo de su parentesco.',
    'islamic.assumed-relationship': (g) =>
      `El parentesco del beneficiario ${g.f.number(g.num('beneficiary'))} se lee como «${g.heir()}».`,
    'islamic.ambiguous-relationship': (g) =>
      `El parentesco del beneficiario ${g.f.number(g.num('beneficiary'))} es ambiguo según el fara’id: indique cuál es, ${g.f.or(g.heirs('candidates').map((h) => `«${h}»`))}.`,
    'islamic.unmapped-relationship': (g) => {
      const who = `beneficiario ${g.f.number(g.num('beneficiary'))}`;
      const tail = g.flag('mirth') ? '' : ' Se trata como un legatario no heredero.';
      return g.str('variant') === 'missing'
        ? `No se indica el parentesco del ${who}; un modelo islámico necesita el parentesco de cada beneficiario con el difunto.${tail}`
        : `El parentesco del ${who} no corresponde a ningún heredero del fara’id.${g.flag('mirth') ? ' Use un término conocido.' : tail}`;
    },
    'wasiyyah.bequest-to-heir': (g) =>
      `«${g.heir()}» recibe ${g.pct('givenPercent')} en lugar de su parte del fara’id, ${g.pct('expectedPercent')}: el exceso es un legado a un heredero, válido solo con el consentimiento de los demás herederos${g.flag('consent') ? ', que se ha dado' : ''}.`,
    'wasiyyah.excluded-heir-legatee': (g) =>
      `«${g.heir('by')}» excluye a «${g.heir()}» de la herencia; por eso «${g.heir()}» puede recibir un legado.`,
    'wasiyyah.over-one-third': (g) =>
      `Los legados suman ${g.pct('bequestPercent')}, más de un tercio del patrimonio; el exceso solo es válido con el consentimiento de los herederos${g.flag('consent') ? ', que se ha dado' : ''}.`,
    'wasiyyah.no-bequest': () => 'Ningún beneficiario es legatario; el plan es un simple reparto según el fara’id.',
  },
};

const ar: LawWords = {
  groups: { descendants: 'الأولاد (الفروع)', spouse: 'الزوج أو الزوجة', parents: 'الوالدان' },
  basis: { estate: 'من التركة', 'movable-estate': 'من التركة المنقولة (الأصول المشفرة منقولة)' },
  problems: {
    'husband-and-wife': 'لا يمكن أن يرث زوج وزوجة معًا من شخص واحد',
    one: (h) => `«${h}»: لا يكون إلا واحدًا`,
    wives: 'لا يجوز أكثر من أربع زوجات',
  },
  sentences: {
    'plan.percentage-precision': (g) =>
      `نسبة المستفيد ${g.f.number(g.num('beneficiary'))} فيها أكثر من منزلتين عشريتين.`,
    'plan.percentages-sum': (g) => `مجموع النسب ${g.pct('totalPercent')} وليس ${g.f.percent(100)}.`,
    'plan.relationship-missing': (g) =>
      `مستفيدون بلا صلة قرابة محددة: ${g.f.number(g.num('count'))}. لا يمكن التحقق من الحصة المحفوظة وحقوق الزوج إلا للمستفيدين الذين ذُكرت صلة قرابتهم.`,
    'template.mismatch': (g) => {
      const place = g.place();
      const quoted = (id: string) => `«${g.template(id)}»`;
      const recommended = `النماذج الموصى بها: ${g.f.and(g.str('recommended').split(',').map(quoted))}.`;
      switch (g.str('variant')) {
        case 'no-legal-force':
          return `${place}: ليس لأحكام الميراث الإسلامي قوة قانونية هناك، فتسري الخطة تصرفًا عاديًا وفق القانون المحلي، بما في ذلك أي حصة محفوظة أو حقوق للزوج.`;
        case 'forced-heirship':
          return `${place}: يحفظ القانون هناك حصة للورثة، ونموذج ${quoted(g.str('template'))} يفترض حرية الإيصاء. يحتفظ أصحاب الحصة المحفوظة بحقوقهم مهما قالت الخطة، فانظر في نموذج ${quoted('civil-law')}.`;
        case 'no-reserve':
          return `${place}: لا يحفظ القانون هناك حصة للورثة على طريقة القانون المدني، فحصص نموذج ${quoted(g.str('template'))} المحفوظة غير لازمة. ${recommended}`;
        default:
          return `${place}: نموذج ${quoted(g.str('template'))} ليس من النماذج الموصى بها. ${recommended}`;
      }
    },
    'forced-heirship.reserve': (g) => {
      const cond = g.flag('conditional') ? ' ولا ينطبق هذا إلا بالشروط التي يحددها القانون.' : '';
      if (g.str('variant') === 'per-child')
        return `${g.place()}: لكل واحد من الأولاد الـ${g.f.number(g.num('children'))} المذكورين حصة محفوظة لا تقل عن ${g.pct('eachPercent')} ${basisOf(g, ar)}، والمستفيد ${g.f.number(g.num('beneficiary'))} يحصل على ${g.pct('givenPercent')}.${cond}`;
      return `${g.place()}: يحفظ القانون ${g.fraction('fraction')} ${basisOf(g, ar)} (${g.pct('reservePercent')}) لهؤلاء الورثة: ${groupsOf(g, ar, 'heirs')}، وهذه الخطة تعطيهم ${g.pct('givenPercent')}. لا تستطيع الوصية أن تنتزع منهم هذه الحصة: يجوز لهم المطالبة بتخفيض التبرعات الأخرى.${cond}`;
    },
    'forced-heirship.not-computed': (g) => `${g.place()}: يحفظ القانون هناك حصة للورثة، وهذه الخدمة لا تحسبها.`,
    'forced-heirship.unnamed-heirs': (g) =>
      `${g.place()}: في وضعك يحفظ القانون جزءًا من التركة لهؤلاء الورثة: ${groupsOf(g, ar, 'heirs')}. لا تذكر الخطة أحدًا منهم، فإن وُجدوا احتفظوا بحصتهم وإن لم تذكرهم الخطة.`,
    'spouse.elective-share': (g) => {
      const place = g.place();
      const statute = g.str('statute');
      switch (g.str('variant')) {
        case 'no-spouse': {
          const what = g.has('fraction')
            ? `${g.fraction('fraction')} (${g.pct('requiredPercent')})`
            : g.has('maxFraction')
              ? `حتى ${g.fraction('maxFraction')} (${g.pct('maxPercent')})`
              : 'حصة يحددها القانون';
          return `${place}: للزوج الباقي على قيد الحياة حصة اختيارية (${statute}): إن كنت متزوجًا فلزوجك أن يطالب بـ${what} مهما قالت هذه الخطة. وتُحسب على أكثر من أصول هذه الخطة، فتدخل فيها الأموال الأخرى التي تؤول إليه.`;
        }
        case 'fixed':
          return `${place}: للزوج الباقي أن يختار أخذ ${g.fraction('fraction')} (${g.pct('requiredPercent')}) بدل ما تعطيه الوصية (${statute})، وهذه الخطة تعطيه ${g.pct('givenPercent')}.`;
        case 'up-to':
          return `${place}: للزوج الباقي أن يختار أخذ ما يصل إلى ${g.fraction('maxFraction')} (${g.pct('maxPercent')}) بحسب مدة الزواج (${statute})، وهذه الخطة تعطيه ${g.pct('givenPercent')}.`;
        default:
          return `${place}: للزوج الباقي أن يختار عدم الأخذ بالوصية (${statute}). تحقق من أن هذه الخطة وأموالك الأخرى تترك له ما يعطيه القانون.`;
      }
    },
    'spouse.community-property': (g) => {
      if (g.str('variant') === 'opt-in')
        return `${g.place()}: يجوز الاشتراك في الأموال بين الزوجين باتفاق. إن كنت تملك مع زوجك أموالًا على هذا النحو فنصفها لزوجك، ولا تتصرف الخطة إلا في نصفك.`;
      const regime = g.flag('optIn')
        ? `يسمح القانون (${g.place()}) بالاشتراك في الأموال باتفاق أو بائتمان، وقد ذكرتَ أن أموالكما مشتركة.`
        : `النظام المالي الافتراضي للزوجين (${g.place()}) هو الاشتراك في الأموال.`;
      const first = g.flag('spouseNamed') ? regime : `إن كنت متزوجًا: ${regime}`;
      return `${first} يملك الزوج الباقي أصلًا نصف الأموال المشتركة، فلا تتصرف الخطة إلا في نصفك وفي أموالك الخاصة؛ لا تضع نصف زوجك في هذا العقد دون موافقته.`;
    },
    'spouse.deferred-community': (g) =>
      `${g.place()}: النظام المالي الافتراضي يقسم مكاسب الزوجين عند انتهاء الزواج، ويُسوّى حق الزوج قبل قسمة التركة.`,
    'islamic-law.applies': (g) =>
      `${g.place()}: تحكم أحكام الميراث الإسلامي ${g.str('scope') === 'all' ? 'التركات' : 'تركات المسلمين'}. إن كانت تحكم تركتك فللورثة أصحاب الفروض حصص ثابتة مهما قالت هذه الخطة؛ فانظر في نموذج «${g.template('islamic-mirth')}» أو «${g.template('islamic-wasiyyah')}».`,
    'islamic-law.bequest-limit': (g) =>
      `حيث تسري الشريعة الإسلامية، لا تتجاوز الوصية لغير الورثة ${g.fraction('fraction')} التركة (${g.pct('limitPercent')}) إلا بإجازة الورثة، وهذه الخطة تعطي ${g.pct('givenPercent')} لمستفيدين ليسوا من الأقارب.`,
    'faraid.school': (g) => {
      const school = g.school();
      if (g.has('jurisdictionSchool')) {
        return g.str('jurisdictionSchool') === 'code'
          ? `${g.place()}: يطبّق القانون هناك تقنينه الخاص، والمذهب ${school} المطبّق هنا اختاره الطلب.`
          : `${g.place()}: يتبع القانون هناك المذهب ${g.school('jurisdictionSchool')}، والمذهب ${school} المطبّق هنا اختاره الطلب وقد يختلف عما تطبقه المحاكم هناك.`;
      }
      switch (g.str('chosenBy')) {
        case 'jurisdiction':
          return `جرى التحقق من الفرائض على المذهب ${school}، وهو المذهب الذي يتبعه القانون (${g.place()}).`;
        case 'caller':
          return `جرى التحقق من الفرائض على المذهب ${school}، كما اختير.`;
        default:
          return `جرى التحقق من الفرائض على المذهب ${school} افتراضيًا: لا يوجد مذهب مسجّل (${g.place()}).`;
      }
    },
    'faraid.school-not-computed': (g) =>
      `المذهب ${g.school()} هو المطبّق هنا، وهذه الحاسبة لا تحسبه بعد، فلم يُتحقق من الحصص.`,
    'faraid.public-treasury': (g) =>
      `الوارث الوحيد: «${g.heir()}». ودون ردّ على الزوج يبقى له الفرض وحده؛ ويذهب ${g.pct('treasuryPercent')} إلى بيت المال.${g.flag('treasuryNamed') ? '' : ' أضف مستفيدًا صلته «public treasury» أو طبّق الردّ على الزوج.'}`,
    'faraid.share-mismatch': (g) =>
      g.str('variant') === 'treasury'
        ? `يُعطى بيت المال ${g.pct('givenPercent')} لكن نصيبه ${g.pct('expectedPercent')}${g.flag('carriedEarlier') ? ' (يحمله مستفيد سابق)' : ''}.`
        : `«${g.heir()}»: الحصة في الخطة ${g.pct('givenPercent')}، والنصيب في الفرائض (المذهب ${g.school()}) ${g.pct('expectedPercent')}${g.has('leftPercent') ? ` (من ${g.pct('leftPercent')} الباقية بعد الوصايا)` : ''}.`,
    'faraid.excluded-heir': (g) => `«${g.heir()}» لا يرث شيئًا: يحجبه «${g.heir('by')}».`,
    'faraid.missing-heir': (g) =>
      `«${g.heir()}» وارث على قيد الحياة، ليس من مستفيدي الخطة لكن له ${g.pct('expectedPercent')} من التركة.`,
    'faraid.assumption': (g) =>
      `حُسبت الحصص بالفرائض (المذهب ${g.school()}) على افتراض أن الورثة المذكورين هم كل الورثة الأحياء؛ وأي وارث آخر يغيّرها.`,
    'faraid.non-heir': (g) =>
      g.str('variant') === 'treasury'
        ? 'لا يأخذ بيت المال نصيبًا إلا إذا كان الزوج أو الزوجة الوارث الوحيد ولم يُطبّق الردّ على الزوج؛ وهنا لا يأخذ شيئًا.'
        : `صلة قرابة المستفيد ${g.f.number(g.num('beneficiary'))} لا تجعله وارثًا في الفرائض، وخطة الميراث لا تعطي إلا الورثة. استعمل نموذج «${g.template('islamic-wasiyyah')}» للإيصاء بما يصل إلى الثلث لغير الورثة.`,
    'faraid.no-heirs': (g) =>
      g.flag('mirth')
        ? 'لا أحد من المستفيدين وارث في الفرائض، وخطة الميراث تقسم التركة بين الورثة.'
        : 'لا أحد من المستفيدين وارث في الفرائض، فالخطة كلها وصايا.',
    'faraid.invalid-heirs': (g) => `صلات قرابة المستفيدين لا تجتمع: ${problemsOf(g, ar)}.`,
    'faraid.distant-kindred': () =>
      'لا يمكن التحقق من الحصص: أنصبة ذوي الأرحام المذكورين لا تُعرف من صلات قرابتهم وحدها.',
    'islamic.assumed-relationship': (g) =>
      `تُفهم صلة قرابة المستفيد ${g.f.number(g.num('beneficiary'))} على أنها «${g.heir()}».`,
    'islamic.ambiguous-relationship': (g) =>
      `صلة قرابة المستفيد ${g.f.number(g.num('beneficiary'))} ملتبسة في الفرائض: حدّد المقصود، ${g.f.or(g.heirs('candidates').map((h) => `«${h}»`))}.`,
    'islamic.unmapped-relationship': (g) => {
      const who = `المستفيد ${g.f.number(g.num('beneficiary'))}`;
      const tail = g.flag('mirth') ? '' : ' ويُعامل موصًى له من غير الورثة.';
      return g.str('variant') === 'missing'
        ? `لم تُذكر صلة قرابة ${who}، والنموذج الإسلامي يحتاج صلة كل مستفيد بالمتوفى.${tail}`
        : `صلة قرابة ${who} لا تقابل أي وارث في الفرائض.${g.flag('mirth') ? ' استعمل لفظًا معروفًا.' : tail}`;
    },
    'wasiyyah.bequest-to-heir': (g) =>
      `«${g.heir()}»: الحصة في الخطة ${g.pct('givenPercent')} بدل النصيب في الفرائض ${g.pct('expectedPercent')}: الزيادة وصية لوارث لا تصح إلا بإجازة باقي الورثة${g.flag('consent') ? '، وقد أُجيزت' : ''}.`,
    'wasiyyah.excluded-heir-legatee': (g) => `«${g.heir()}» محجوب عن الميراث بـ«${g.heir('by')}»، فتجوز له الوصية.`,
    'wasiyyah.over-one-third': (g) =>
      `مجموع الوصايا ${g.pct('bequestPercent')}، أي أكثر من ثلث التركة؛ ولا تصح الزيادة إلا بإجازة الورثة${g.flag('consent') ? '، وقد أُجيزت' : ''}.`,
    'wasiyyah.no-bequest': () => 'لا أحد من المستفيدين موصًى له؛ فالخطة قسمة فرائض محضة.',
  },
};

/**
 * The words of the languages a reader gets from params. English is in ./law-words-en.ts, out of the wizard's
 * bundle: English readers get the service's own message (`lawFindingInWords`).
 */
export const READER_WORDS: Record<Exclude<Locale, 'en'>, LawWords> = { ar, es, fr };

const andCache = new Map<Locale, Intl.ListFormat>();

/** A locale's formats for law sentences: its number formats, and lists joined by "and". */
export function lawFormats(locale: Locale): LawFormats {
  let and = andCache.get(locale);
  if (!and) {
    and = new Intl.ListFormat(locale, { type: 'conjunction' });
    andCache.set(locale, and);
  }
  const list = and;
  return { ...numberFormats(locale), and: (items) => list.format(items) };
}

/** A law finding as the service sends it: its rule, its English message, and its params. */
export interface LawFindingInput {
  rule: string;
  message: string;
  params?: LawParams | undefined;
}

/**
 * A law finding in the reader's words: the sentence for its rule, built from its params and the caller's names.
 * English readers get the service's message, which also carries the jurisdiction's own notes. A finding whose
 * rule, params or names have no words here keeps its English message, with `english` set so the caller marks it.
 */
export function lawFindingInWords(
  finding: LawFindingInput,
  locale: Locale,
  names: LawNames,
): { message: string; english: boolean } {
  const english = { message: finding.message, english: true };
  if (locale === 'en') return { message: finding.message, english: false };
  const said = sayWith(READER_WORDS[locale], finding, locale, names);
  return said === undefined ? english : { message: said, english: false };
}

/** The sentence of `words` for a finding's rule and params, or undefined when something is missing. */
export function sayWith(
  words: LawWords,
  finding: LawFindingInput,
  locale: Locale,
  names: LawNames,
): string | undefined {
  if (!(LAW_RULES as readonly string[]).includes(finding.rule) || !finding.params) return undefined;
  const say = words.sentences[finding.rule as LawRule];
  try {
    return say(getter(finding.params, lawFormats(locale), names));
  } catch (err) {
    if (err instanceof Unsaid) return undefined;
    throw err;
  }
}
