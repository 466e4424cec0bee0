/** The law findings' sentences in Spanish, built from their params (./law-words-kit.ts). */
import { electiveShareOf, basisOf, groupsOf, lower, problemsOf, type LawWords } from './law-words-kit.js';

export const es: LawWords = {
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
        return `${g.place()}: ${g.num('children') === 1 ? 'el único hijo nombrado' : `cada uno de los ${g.f.number(g.num('children'))} hijos nombrados`} tiene derecho al menos a ${g.pct('eachPercent')} ${basisOf(g, es)} como legítima; el beneficiario ${g.f.number(g.num('beneficiary'))} recibe ${g.pct('givenPercent')}.${cond}`;
      return `${g.place()}: la ley reserva ${g.fraction('fraction')} ${basisOf(g, es)} (${g.pct('reservePercent')}) a estos herederos: ${groupsOf(g, es, 'heirs')}; este plan les da ${g.pct('givenPercent')}. Un testamento no puede quitarles la legítima: ${g.str('claim') === 'money' ? 'pueden reclamar la diferencia en dinero a la herencia' : 'pueden pedir la reducción de las demás disposiciones'}.${cond}`;
    },
    'forced-heirship.usufruct': (g) => {
      const cond = g.flag('conditional') ? ' Esto solo se aplica en las condiciones que fija la ley.' : '';
      const what =
        'el derecho, de por vida, a usar esa parte de los bienes o a percibir sus rentas, que grava lo que reciben los demás herederos. No es una parte en propiedad que el contrato pueda pagar.';
      if (g.str('variant') === 'not-named')
        return `${g.place()}: si está casado, su cónyuge tiene por ley el usufructo de ${g.fraction('fraction')} ${basisOf(g, es)}, diga lo que diga este plan: ${what}${cond}`;
      return `${g.place()}: la ley reserva el usufructo de ${g.fraction('fraction')} ${basisOf(g, es)} a estos herederos: ${groupsOf(g, es, 'heirs')}. Es ${what} Este plan les da ${g.pct('givenPercent')} en propiedad; el usufructo aún puede reclamarse si eso no vale lo mismo.${cond}`;
    },
    'forced-heirship.not-computed': (g) => `${g.place()}: la ley establece una legítima, que este servicio no calcula.`,
    'forced-heirship.unnamed-heirs': (g) =>
      `${g.place()}: en su situación, la ley reserva parte del patrimonio a estos herederos: ${groupsOf(g, es, 'heirs')}. El plan no nombra a ninguno; si los hay, conservan su legítima aunque el plan no los nombre.`,
    'spouse.elective-share': (g) => {
      const place = g.place();
      const statute = g.str('statute');
      switch (g.str('variant')) {
        case 'no-spouse': {
          const what = electiveShareOf(g, (share) => `hasta ${share}`, 'una parte fijada por la ley');
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
      g.str('variant') === 'share-increase'
        ? `${g.place()}: al fallecer, el régimen legal no reparte las ganancias de los cónyuges, sino que aumenta la cuota legal del cónyuge. El cónyuge que rechace lo que el plan le da puede reclamar en su lugar la compensación de ganancias, con una legítima calculada sobre la cuota sin aumentar.`
        : `${g.place()}: el régimen legal reparte las ganancias de los cónyuges al terminar el matrimonio; el crédito del cónyuge se liquida antes de repartir la herencia.`,
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
      `El parentesco del beneficiario ${g.f.number(g.num('beneficiary'))} es ambiguo según el fara’id: indique cuál es, ${g.f.or(g.heirs('candidates').map((h) => `«${h}»`))}. Las cuotas se comprobarán cuando se indique.`,
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
