/** The law findings' sentences in French, built from their params (./law-words-kit.ts). */
import { electiveShareOf, basisOf, groupsOf, lower, problemsOf, type LawWords } from './law-words-kit.js';

export const fr: LawWords = {
  groups: { descendants: 'les enfants (descendants)', spouse: 'le conjoint', parents: 'les parents' },
  basis: {
    estate: 'du patrimoine',
    'movable-estate': 'du patrimoine mobilier (les crypto-actifs sont des meubles)',
  },
  problems: {
    'husband-and-wife': 'un mari et une épouse ne peuvent pas être tous deux héritiers d’une même personne',
    one: (h) => `«\u00a0${h}\u00a0»\u00a0: un seul possible`,
    wives: 'il peut y avoir au plus quatre épouses',
  },
  sentences: {
    'plan.percentage-precision': (g) =>
      `Le pourcentage du bénéficiaire ${g.f.number(g.num('beneficiary'))} a plus de deux décimales.`,
    'plan.percentages-sum': (g) => `Les pourcentages totalisent ${g.pct('totalPercent')}, et non ${g.f.percent(100)}.`,
    'plan.relationship-missing': (g) =>
      `Bénéficiaires sans lien de parenté indiqué\u00a0: ${g.f.number(g.num('count'))}. La réserve et les droits du conjoint ne peuvent être vérifiés que pour les bénéficiaires dont le lien est indiqué.`,
    'template.mismatch': (g) => {
      const place = g.place();
      const quoted = (id: string) => `«\u00a0${g.template(id)}\u00a0»`;
      const recommended = `Modèles recommandés\u00a0: ${g.f.and(g.str('recommended').split(',').map(quoted))}.`;
      switch (g.str('variant')) {
        case 'no-legal-force':
          return `${place}\u00a0: le droit successoral islamique n’y a pas force de loi\u00a0; le plan y vaut comme une disposition ordinaire du droit local, réserve héréditaire et droits du conjoint compris.`;
        case 'forced-heirship':
          return `${place}\u00a0: la loi y prévoit une réserve héréditaire\u00a0; le modèle ${quoted(g.str('template'))} suppose la liberté de tester. Les héritiers réservataires gardent leurs droits quoi que dise le plan\u00a0: envisagez le modèle ${quoted('civil-law')}.`;
        case 'no-reserve':
          return `${place}\u00a0: la loi n’y prévoit pas de réserve héréditaire de type civiliste\u00a0; les réserves du modèle ${quoted(g.str('template'))} n’y sont pas exigées. ${recommended}`;
        default:
          return `${place}\u00a0: le modèle ${quoted(g.str('template'))} ne fait pas partie des modèles recommandés. ${recommended}`;
      }
    },
    'forced-heirship.reserve': (g) => {
      const cond = g.flag('conditional') ? ' Cela ne s’applique que dans les conditions fixées par la loi.' : '';
      if (g.str('variant') === 'per-child')
        return `${g.place()}\u00a0: ${g.num('children') === 1 ? 'l’enfant nommé' : `chacun des ${g.f.number(g.num('children'))} enfants nommés`} a droit à au moins ${g.pct('eachPercent')} ${basisOf(g, fr)} au titre de la réserve\u00a0; le bénéficiaire ${g.f.number(g.num('beneficiary'))} reçoit ${g.pct('givenPercent')}.${cond}`;
      return `${g.place()}\u00a0: la loi réserve ${g.fraction('fraction')} ${basisOf(g, fr)} (${g.pct('reservePercent')}) à ces héritiers\u00a0: ${groupsOf(g, fr, 'heirs')}\u00a0; ce plan leur donne ${g.pct('givenPercent')}. Un testament ne peut pas leur retirer la réserve\u00a0: ${g.str('claim') === 'money' ? 'ils peuvent réclamer la différence en argent à la succession' : 'ils peuvent demander la réduction des autres libéralités'}.${cond}`;
    },
    'forced-heirship.usufruct': (g) => {
      const cond = g.flag('conditional') ? ' Cela ne s’applique que dans les conditions fixées par la loi.' : '';
      const what =
        'le droit, à vie, d’utiliser cette part des biens ou d’en percevoir les revenus, qui grève ce que reçoivent les autres héritiers. Ce n’est pas une part en propriété que le contrat peut verser.';
      if (g.str('variant') === 'not-named')
        return `${g.place()}\u00a0: si vous êtes marié, votre conjoint a de par la loi l’usufruit de ${g.fraction('fraction')} ${basisOf(g, fr)}, quoi que dise ce plan\u00a0: ${what}${cond}`;
      return `${g.place()}\u00a0: la loi réserve l’usufruit de ${g.fraction('fraction')} ${basisOf(g, fr)} à ces héritiers\u00a0: ${groupsOf(g, fr, 'heirs')}. C’est ${what} Ce plan leur donne ${g.pct('givenPercent')} en propriété\u00a0; l’usufruit peut encore être réclamé si cela ne vaut pas autant.${cond}`;
    },
    'forced-heirship.not-computed': (g) =>
      `${g.place()}\u00a0: la loi y prévoit une réserve héréditaire, que ce service ne calcule pas.`,
    'forced-heirship.unnamed-heirs': (g) =>
      `${g.place()}\u00a0: dans votre situation, la loi réserve une part du patrimoine à ces héritiers\u00a0: ${groupsOf(g, fr, 'heirs')}. Le plan n’en nomme aucun\u00a0; s’il y en a, ils gardent leur réserve même si le plan ne les nomme pas.`,
    'spouse.elective-share': (g) => {
      const place = g.place();
      const statute = g.str('statute');
      switch (g.str('variant')) {
        case 'no-spouse': {
          const what = electiveShareOf(g, (share) => `jusqu’à ${share}`, 'une part fixée par la loi');
          return `${place}\u00a0: le conjoint survivant y dispose d’une part à option (${statute})\u00a0: si vous êtes marié, votre conjoint peut réclamer ${what} quoi que dise ce plan. Elle se calcule sur plus que les biens de ce plan\u00a0: les autres biens qui lui reviennent en tiennent lieu en partie.`;
        }
        case 'fixed':
          return `${place}\u00a0: le conjoint survivant peut choisir de prendre ${g.fraction('fraction')} (${g.pct('requiredPercent')}) au lieu de ce que lui donne le testament (${statute})\u00a0; ce plan lui donne ${g.pct('givenPercent')}.`;
        case 'up-to':
          return `${place}\u00a0: le conjoint survivant peut choisir de prendre jusqu’à ${g.fraction('maxFraction')} (${g.pct('maxPercent')}), selon la durée du mariage (${statute})\u00a0; ce plan lui donne ${g.pct('givenPercent')}.`;
        default:
          return `${place}\u00a0: le conjoint survivant peut choisir d’écarter le testament (${statute}). Vérifiez que ce plan et vos autres biens lui laissent ce que la loi lui donne.`;
      }
    },
    'spouse.community-property': (g) => {
      if (g.str('variant') === 'opt-in')
        return `${g.place()}\u00a0: la communauté de biens y est possible par convention. Si votre conjoint et vous détenez des biens ainsi, la moitié lui appartient et le plan ne peut disposer que de votre moitié.`;
      const regime = g.flag('optIn')
        ? `la loi (${g.place()}) permet la communauté de biens par convention ou fiducie, et vous avez indiqué être en communauté.`
        : `le régime légal en vigueur (${g.place()}) est la communauté de biens.`;
      const first = g.flag('spouseNamed')
        ? `${regime[0]!.toUpperCase()}${regime.slice(1)}`
        : `Si vous êtes marié, ${regime}`;
      return `${first} Le conjoint survivant possède déjà la moitié des biens communs\u00a0: le plan ne peut disposer que de votre moitié et de vos biens propres\u00a0; n’y placez pas la moitié de votre conjoint sans son accord.`;
    },
    'spouse.deferred-community': (g) =>
      g.str('variant') === 'share-increase'
        ? `${g.place()}\u00a0: au décès, le régime légal n’y partage pas les acquêts des époux\u00a0; il augmente à la place la part légale du conjoint. Le conjoint qui refuse ce que le plan lui donne peut réclamer à la place la compensation des acquêts, avec une réserve calculée sur la part non augmentée.`
        : `${g.place()}\u00a0: le régime légal y partage les acquêts des époux à la fin du mariage\u00a0; la créance du conjoint est réglée avant le partage de la succession.`,
    'islamic-law.applies': (g) =>
      `${g.place()}\u00a0: le droit successoral islamique y régit ${g.str('scope') === 'all' ? 'les successions' : 'les successions des musulmans'}. S’il régit la vôtre, les héritiers coraniques prennent des parts fixes quoi que dise ce plan\u00a0; envisagez le modèle «\u00a0${g.template('islamic-mirth')}\u00a0» ou «\u00a0${g.template('islamic-wasiyyah')}\u00a0».`,
    'islamic-law.bequest-limit': (g) =>
      `Là où le droit islamique s’applique, les legs à des non-héritiers sont limités à ${g.fraction('fraction')} du patrimoine (${g.pct('limitPercent')}) sauf accord des héritiers\u00a0; ce plan donne ${g.pct('givenPercent')} à des bénéficiaires qui ne sont pas de la famille.`,
    'faraid.school': (g) => {
      const school = lower(g.school());
      if (g.has('jurisdictionSchool')) {
        return g.str('jurisdictionSchool') === 'code'
          ? `${g.place()}\u00a0: la loi y suit son propre code\u00a0; l’école ${school} appliquée ici a été choisie par la demande.`
          : `${g.place()}\u00a0: la loi y suit l’école ${lower(g.school('jurisdictionSchool'))}\u00a0; l’école ${school} appliquée ici a été choisie par la demande et peut différer de ce qu’un tribunal y appliquerait.`;
      }
      switch (g.str('chosenBy')) {
        case 'jurisdiction':
          return `Fara’id vérifié selon l’école ${school}, celle que retient la loi (${g.place()}).`;
        case 'caller':
          return `Fara’id vérifié selon l’école ${school}, celle qui a été choisie.`;
        default:
          return `Fara’id vérifié selon l’école ${school}, par défaut\u00a0: aucune école n’est enregistrée (${g.place()}).`;
      }
    },
    'faraid.school-not-computed': (g) =>
      `L’école ${lower(g.school())} s’applique ici\u00a0; ce calculateur ne la calcule pas encore, les parts n’ont donc pas été vérifiées.`,
    'faraid.public-treasury': (g) =>
      `Seul héritier\u00a0: «\u00a0${g.heir()}\u00a0». Sans radd au conjoint, sa part reste la part fixe\u00a0; ${g.pct('treasuryPercent')} revient au trésor public (bayt al-mal).${g.flag('treasuryNamed') ? '' : ' Ajoutez un bénéficiaire avec le lien «\u00a0public treasury\u00a0», ou appliquez le radd au conjoint.'}`,
    'faraid.share-mismatch': (g) =>
      g.str('variant') === 'treasury'
        ? `Le trésor public reçoit ${g.pct('givenPercent')} mais sa part est de ${g.pct('expectedPercent')}${g.flag('carriedEarlier') ? ' (déjà portée par un bénéficiaire précédent)' : ''}.`
        : `«\u00a0${g.heir()}\u00a0» reçoit ${g.pct('givenPercent')} mais sa part du fara’id (école ${lower(g.school())}) est de ${g.pct('expectedPercent')}${g.has('leftPercent') ? ` (sa part des ${g.pct('leftPercent')} qui restent après les legs)` : ''}.`,
    'faraid.excluded-heir': (g) =>
      `«\u00a0${g.heir()}\u00a0» n’hérite de rien\u00a0: «\u00a0${g.heir('by')}\u00a0» l’exclut.`,
    'faraid.missing-heir': (g) =>
      `«\u00a0${g.heir()}\u00a0», héritier survivant, n’est pas bénéficiaire du plan mais a droit à ${g.pct('expectedPercent')} du patrimoine.`,
    'faraid.assumption': (g) =>
      `Parts calculées selon le fara’id (école ${lower(g.school())}) en supposant que les héritiers indiqués sont tous les héritiers survivants\u00a0; tout autre héritier survivant les change.`,
    'faraid.non-heir': (g) =>
      g.str('variant') === 'treasury'
        ? 'Le trésor public ne prend une part que si un mari ou une épouse est le seul héritier sans radd au conjoint\u00a0; ici il ne prend rien.'
        : `Le lien du bénéficiaire ${g.f.number(g.num('beneficiary'))} n’en fait pas un héritier selon le fara’id, et un plan de mirath ne donne qu’aux héritiers. Utilisez le modèle «\u00a0${g.template('islamic-wasiyyah')}\u00a0» pour léguer jusqu’à un tiers à des non-héritiers.`,
    'faraid.no-heirs': (g) =>
      g.flag('mirth')
        ? 'Aucun bénéficiaire n’est héritier selon le fara’id\u00a0; un plan de mirath partage le patrimoine entre les héritiers.'
        : 'Aucun bénéficiaire n’est héritier selon le fara’id\u00a0; tout le plan est fait de legs.',
    'faraid.invalid-heirs': (g) => `Les liens des bénéficiaires sont impossibles ensemble\u00a0: ${problemsOf(g, fr)}.`,
    'faraid.distant-kindred': () =>
      'Les parts ne peuvent pas être vérifiées\u00a0: celles des parents éloignés nommés ne se déduisent pas de leurs seuls liens.',
    'islamic.assumed-relationship': (g) =>
      `Le lien du bénéficiaire ${g.f.number(g.num('beneficiary'))} est lu comme «\u00a0${g.heir()}\u00a0».`,
    'islamic.ambiguous-relationship': (g) =>
      `Le lien du bénéficiaire ${g.f.number(g.num('beneficiary'))} est ambigu selon le fara’id\u00a0: précisez lequel est visé, ${g.f.or(g.heirs('candidates').map((h) => `«\u00a0${h}\u00a0»`))}. Les parts seront vérifiées une fois ce lien précisé.`,
    'islamic.unmapped-relationship': (g) => {
      const who = `bénéficiaire ${g.f.number(g.num('beneficiary'))}`;
      const tail = g.flag('mirth') ? '' : ' Il est traité comme un légataire non héritier.';
      return g.str('variant') === 'missing'
        ? `Aucun lien indiqué pour le ${who}\u00a0; un modèle islamique demande le lien de chaque bénéficiaire avec le défunt.${tail}`
        : `Le lien du ${who} ne correspond à aucun héritier du fara’id.${g.flag('mirth') ? ' Utilisez un terme connu.' : tail}`;
    },
    'wasiyyah.bequest-to-heir': (g) =>
      `«\u00a0${g.heir()}\u00a0» reçoit ${g.pct('givenPercent')} au lieu de sa part du fara’id, ${g.pct('expectedPercent')}\u00a0: le surplus est un legs à un héritier, valable seulement avec l’accord des autres héritiers${g.flag('consent') ? ', qui a été donné' : ''}.`,
    'wasiyyah.excluded-heir-legatee': (g) =>
      `«\u00a0${g.heir('by')}\u00a0» exclut «\u00a0${g.heir()}\u00a0» de l’héritage\u00a0; «\u00a0${g.heir()}\u00a0» peut donc recevoir un legs.`,
    'wasiyyah.over-one-third': (g) =>
      `Les legs totalisent ${g.pct('bequestPercent')}, plus d’un tiers du patrimoine\u00a0; l’excédent n’est valable qu’avec l’accord des héritiers${g.flag('consent') ? ', qui a été donné' : ''}.`,
    'wasiyyah.no-bequest': () =>
      'Aucun bénéficiaire n’est légataire\u00a0; le plan est un simple partage selon le fara’id.',
  },
};
