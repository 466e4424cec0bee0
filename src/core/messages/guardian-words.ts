/**
 * What the guardians of a plan can do, in each locale: the same on every chain (EVM, Solana and TON analyses all give
 * `threshold`, `guardians` and `waitDays`), so the three chains' catalogues share these words. A single guardian is
 * "your guardian", never "1 of your 1 guardians".
 */
import { num, type SayParams } from './coded.js';
import type { Locale } from './index.js';

/** Whether the plan has a single guardian, named in the singular. */
const single = (p: Parameters<SayParams>[0]) => num(p, 'guardians') === 1;

export const GUARDIAN_RULES: Record<Locale, SayParams> = {
  en: (p, f) => {
    const one = single(p);
    return `${one ? 'Your guardian' : `${f.number(num(p, 'threshold'))} of your ${f.number(num(p, 'guardians'))} guardians together`} can start an early release. It happens only if you show no sign of life for ${f.number(num(p, 'waitDays'))} days, so ${one ? 'it' : 'they'} can never overrule you.`;
  },
  fr: (p, f) => {
    const one = single(p);
    return `${one ? 'Votre gardien peut' : `${f.number(num(p, 'threshold'))} de vos ${f.number(num(p, 'guardians'))} gardiens ensemble peuvent`} lancer une libération anticipée. Elle n’a lieu que si vous ne donnez aucun signe de vie pendant ${f.number(num(p, 'waitDays'))} jours\u00a0: ${one ? 'il ne peut' : 'ils ne peuvent'} jamais passer outre votre volonté.`;
  },
  es: (p, f) => {
    const one = single(p);
    return `${one ? 'Su guardián puede' : `${f.number(num(p, 'threshold'))} de sus ${f.number(num(p, 'guardians'))} guardianes juntos pueden`} iniciar una liberación anticipada. Solo ocurre si usted no da señales de vida durante ${f.number(num(p, 'waitDays'))} días: nunca ${one ? 'puede' : 'pueden'} imponerse a usted.`;
  },
  ar: (p, f) =>
    single(p)
      ? `يستطيع وصيّك بدء تحرير مبكر، ولا يتم إلا إن لم تُبدِ أي علامة حياة مدة ${f.number(num(p, 'waitDays'))} يومًا، فلا يستطيع تجاوزك أبدًا.`
      : `يستطيع ${f.number(num(p, 'threshold'))} من أوصيائك الـ${f.number(num(p, 'guardians'))} معًا بدء تحرير مبكر، ولا يتم إلا إن لم تُبدِ أي علامة حياة مدة ${f.number(num(p, 'waitDays'))} يومًا، فلا يستطيعون تجاوزك أبدًا.`,
};
