/**
 * Words for a Solana program's analysis warnings, by the warning's `code`, one catalogue per locale. Each sentence is
 * built from the warning's `params` (figures as data), never from its English message.
 */
import { num, str, type SayParams } from './coded.js';
import { GUARDIAN_RULES } from './guardian-words.js';
import type { Locale } from './index.js';

export type { SayParams, WarningParams } from './coded.js';

/** Solana warning codes a person reads in the wizard; each has words in every locale (the type says so). */
export const SOLANA_WARNING_CODES = [
  'solana.owner-release-only',
  'solana.owner-or-guardians-release',
  'solana.no-grace-period',
  'solana.short-interval',
  'solana.guardian-rules',
  'solana.any-one-guardian',
  'solana.all-guardians',
  'solana.owner-is-guardian',
  'solana.unsupported-assets',
  'solana.spl-cancel-withdraw-first',
  'solana.spl-not-claimable',
  'solana.rounding-dust',
] as const;
export type SolanaWarningCode = (typeof SOLANA_WARNING_CODES)[number];

/** Solana advice codes (the analysis's `advice`) a person reads; each has words in every locale. */
export const SOLANA_ADVICE_CODES = [
  'solana.advice-enable-switch',
  'solana.advice-add-grace',
  'solana.advice-tell-guardians',
  'solana.advice-withdraw-tokens',
] as const;
export type SolanaAdviceCode = (typeof SOLANA_ADVICE_CODES)[number];

/** Solana codes for developers (build steps, program internals): shown as the service wrote them. */
export const SOLANA_TECHNICAL_CODES = [
  'solana.not-compiled',
  'solana.placeholder-program-id',
  'solana.spl-token-program',
  'solana.spl-any-mint',
  'solana.events',
  'solana.advice-build',
  'solana.advice-audit',
  'solana.advice-list-spl',
] as const;
export type SolanaTechnicalCode = (typeof SOLANA_TECHNICAL_CODES)[number];

const en: Record<SolanaWarningCode | SolanaAdviceCode, SayParams> = {
  'solana.owner-release-only': () =>
    'Inactivity never releases the estate: only you (or someone holding your key) can release it. If you die first, the funds stay locked.',
  'solana.owner-or-guardians-release': (p, f) =>
    `Inactivity never releases the estate: you release it, or your guardians confirm your absence and the claims open ${f.number(num(p, 'waitDays'))} days later if you stay silent.`,
  'solana.no-grace-period': () => 'There is no grace period: a missed check-in releases the estate at once.',
  'solana.short-interval': (p, f) =>
    `If you miss check-ins for ${f.number(num(p, 'intervalDays'))} days (travel, illness), the estate can be released early.`,
  'solana.guardian-rules': GUARDIAN_RULES.en,
  'solana.any-one-guardian': (p, f) =>
    `Any one of your ${f.number(num(p, 'guardians'))} guardians can start an early release; you then have ${f.number(num(p, 'waitDays'))} days to cancel it.`,
  'solana.all-guardians': () => 'All guardians must agree: if one loses their key, the guardians can no longer act.',
  'solana.owner-is-guardian': () => 'You are listed as one of your own guardians: the program refuses this plan.',
  'solana.unsupported-assets': (p, f) =>
    `${f.number(num(p, 'count'))} asset(s) of the plan (${str(p, 'types')}) cannot be held on Solana and are left out.`,
  'solana.spl-cancel-withdraw-first': () =>
    'Cancelling returns only the SOL: withdraw every token first, or it stays in the vault.',
  'solana.spl-not-claimable': () =>
    'The plan lists no token, so tokens sent to this vault can never be claimed by your heirs nor withdrawn.',
  'solana.rounding-dust': () => 'Shares are rounded down: a tiny remainder can stay in the vault.',
  'solana.advice-enable-switch': () =>
    'Turn the switch on, so that the estate is released even if nobody holds your key.',
  'solana.advice-add-grace': (p, f) =>
    `Consider a grace period (for example ${f.number(num(p, 'exampleDays'))} days), so that a missed check-in can still be corrected.`,
  'solana.advice-tell-guardians': () =>
    'Tell your guardians that their confirmation only starts a waiting period, and that anything you sign (a check-in, a deposit) cancels it.',
  'solana.advice-withdraw-tokens': () => 'Before cancelling, withdraw each token.',
};

const fr: Record<SolanaWarningCode | SolanaAdviceCode, SayParams> = {
  'solana.owner-release-only': () =>
    'L’inactivité ne libère jamais le patrimoine\u00a0: vous seul (ou qui détient votre clé) pouvez le libérer. Si vous décédez avant, les fonds restent bloqués.',
  'solana.owner-or-guardians-release': (p, f) =>
    `L’inactivité ne libère jamais le patrimoine\u00a0: vous le libérez, ou vos gardiens confirment votre absence et les réclamations s’ouvrent ${f.number(num(p, 'waitDays'))} jours plus tard si vous ne vous manifestez pas.`,
  'solana.no-grace-period': () =>
    'Il n’y a pas de délai de grâce\u00a0: une manifestation manquée libère le patrimoine aussitôt.',
  'solana.short-interval': (p, f) =>
    `Si vous ne vous manifestez pas pendant ${f.number(num(p, 'intervalDays'))} jours (voyage, maladie), le patrimoine peut être libéré trop tôt.`,
  'solana.guardian-rules': GUARDIAN_RULES.fr,
  'solana.any-one-guardian': (p, f) =>
    `N’importe lequel de vos ${f.number(num(p, 'guardians'))} gardiens peut lancer une libération anticipée\u00a0; vous avez alors ${f.number(num(p, 'waitDays'))} jours pour l’annuler.`,
  'solana.all-guardians': () =>
    'Tous les gardiens doivent être d’accord\u00a0: si l’un perd sa clé, les gardiens ne peuvent plus agir.',
  'solana.owner-is-guardian': () => 'Vous figurez parmi vos propres gardiens\u00a0: le programme refuse ce plan.',
  'solana.unsupported-assets': (p, f) =>
    `${f.number(num(p, 'count'))} actif(s) du plan (${str(p, 'types')}) ne peuvent pas être détenus sur Solana et sont laissés de côté.`,
  'solana.spl-cancel-withdraw-first': () =>
    'L’annulation ne rend que les SOL\u00a0: retirez d’abord chaque jeton, sinon il reste dans le coffre.',
  'solana.spl-not-claimable': () =>
    'Le plan ne liste aucun jeton\u00a0: des jetons envoyés à ce coffre ne pourront jamais être réclamés par vos héritiers ni retirés.',
  'solana.rounding-dust': () =>
    'Les parts sont arrondies vers le bas\u00a0: un infime reste peut demeurer dans le coffre.',
  'solana.advice-enable-switch': () =>
    'Activez la minuterie, pour que le patrimoine soit libéré même si personne ne détient votre clé.',
  'solana.advice-add-grace': (p, f) =>
    `Pensez à un délai de grâce (par exemple ${f.number(num(p, 'exampleDays'))} jours), pour qu’une manifestation manquée puisse encore être corrigée.`,
  'solana.advice-tell-guardians': () =>
    'Dites à vos gardiens que leur confirmation ne fait qu’ouvrir un délai d’attente, et que tout ce que vous signez (une manifestation, un dépôt) l’annule.',
  'solana.advice-withdraw-tokens': () => 'Avant d’annuler, retirez chaque jeton.',
};

const es: Record<SolanaWarningCode | SolanaAdviceCode, SayParams> = {
  'solana.owner-release-only': () =>
    'La inactividad nunca libera el patrimonio: solo usted (o quien tenga su clave) puede liberarlo. Si fallece antes, los fondos quedan bloqueados.',
  'solana.owner-or-guardians-release': (p, f) =>
    `La inactividad nunca libera el patrimonio: usted lo libera, o sus guardianes confirman su ausencia y las reclamaciones se abren ${f.number(num(p, 'waitDays'))} días después si usted no da señales de vida.`,
  'solana.no-grace-period': () =>
    'No hay periodo de gracia: una señal de vida que falte libera el patrimonio de inmediato.',
  'solana.short-interval': (p, f) =>
    `Si no da señales de vida durante ${f.number(num(p, 'intervalDays'))} días (un viaje, una enfermedad), el patrimonio puede liberarse antes de tiempo.`,
  'solana.guardian-rules': GUARDIAN_RULES.es,
  'solana.any-one-guardian': (p, f) =>
    `Cualquiera de sus ${f.number(num(p, 'guardians'))} guardianes puede iniciar una liberación anticipada; usted tiene entonces ${f.number(num(p, 'waitDays'))} días para cancelarla.`,
  'solana.all-guardians': () =>
    'Todos los guardianes deben estar de acuerdo: si uno pierde su clave, los guardianes ya no pueden actuar.',
  'solana.owner-is-guardian': () => 'Usted figura entre sus propios guardianes: el programa rechaza este plan.',
  'solana.unsupported-assets': (p, f) =>
    `${f.number(num(p, 'count'))} activo(s) del plan (${str(p, 'types')}) no pueden guardarse en Solana y quedan fuera.`,
  'solana.spl-cancel-withdraw-first': () =>
    'Cancelar solo devuelve los SOL: retire antes cada token, o se quedará en la bóveda.',
  'solana.spl-not-claimable': () =>
    'El plan no incluye ningún token: los tokens enviados a esta bóveda nunca podrán reclamarlos sus herederos ni retirarse.',
  'solana.rounding-dust': () => 'Las partes se redondean a la baja: un resto mínimo puede quedar en la bóveda.',
  'solana.advice-enable-switch': () =>
    'Active el interruptor, para que el patrimonio se libere aunque nadie tenga su clave.',
  'solana.advice-add-grace': (p, f) =>
    `Considere un periodo de gracia (por ejemplo ${f.number(num(p, 'exampleDays'))} días), para que una señal de vida que falte aún pueda corregirse.`,
  'solana.advice-tell-guardians': () =>
    'Explique a sus guardianes que su confirmación solo inicia un periodo de espera, y que cualquier cosa que usted firme (una señal de vida, un depósito) la cancela.',
  'solana.advice-withdraw-tokens': () => 'Antes de cancelar, retire cada token.',
};

const ar: Record<SolanaWarningCode | SolanaAdviceCode, SayParams> = {
  'solana.owner-release-only': () =>
    'الخمول لا يحرّر التركة أبدًا: لا يحرّرها إلا أنت (أو من يملك مفتاحك). إن توفيت قبل ذلك بقيت الأموال مقفلة.',
  'solana.owner-or-guardians-release': (p, f) =>
    `الخمول لا يحرّر التركة أبدًا: تحرّرها أنت، أو يؤكد أوصياؤك غيابك فتُفتح المطالبات بعد ${f.number(num(p, 'waitDays'))} يومًا إن بقيت صامتًا.`,
  'solana.no-grace-period': () => 'لا توجد مهلة سماح: أي تأكيد حضور فائت يحرّر التركة فورًا.',
  'solana.short-interval': (p, f) =>
    `إن غبت عن تأكيد الحضور ${f.number(num(p, 'intervalDays'))} يومًا (سفر أو مرض) فقد تُحرَّر التركة قبل الأوان.`,
  'solana.guardian-rules': GUARDIAN_RULES.ar,
  'solana.any-one-guardian': (p, f) =>
    `يستطيع أي واحد من أوصيائك الـ${f.number(num(p, 'guardians'))} بدء تحرير مبكر، ولديك حينها ${f.number(num(p, 'waitDays'))} يومًا لإلغائه.`,
  'solana.all-guardians': () => 'يجب أن يتفق الأوصياء جميعًا: إن فقد أحدهم مفتاحه لم يعد بوسع الأوصياء التصرف.',
  'solana.owner-is-guardian': () => 'أنت مُدرج بين أوصيائك: يرفض البرنامج هذه الخطة.',
  'solana.unsupported-assets': (p, f) =>
    `لا يمكن حفظ ${f.number(num(p, 'count'))} من أصول الخطة (${str(p, 'types')}) على سولانا، فتُستبعد.`,
  'solana.spl-cancel-withdraw-first': () => 'الإلغاء يعيد عملة SOL فقط: اسحب كل رمز أولًا وإلا بقي في الخزنة.',
  'solana.spl-not-claimable': () =>
    'لا تذكر الخطة أي رمز، فالرموز المرسلة إلى هذه الخزنة لا يستطيع ورثتك المطالبة بها ولا يمكن سحبها أبدًا.',
  'solana.rounding-dust': () => 'تُقرّب الحصص إلى الأدنى: قد يبقى فائض ضئيل في الخزنة.',
  'solana.advice-enable-switch': () => 'فعّل المؤقّت، كي تُحرَّر التركة حتى إن لم يملك أحد مفتاحك.',
  'solana.advice-add-grace': (p, f) =>
    `فكّر في مهلة سماح (مثلًا ${f.number(num(p, 'exampleDays'))} يومًا)، كي يمكن تدارك تأكيد حضور فائت.`,
  'solana.advice-tell-guardians': () =>
    'أخبر أوصياءك أن تأكيدهم لا يبدأ إلا مهلة انتظار، وأن أي شيء توقّعه (تأكيد حضور أو إيداع) يلغيها.',
  'solana.advice-withdraw-tokens': () => 'قبل الإلغاء، اسحب كل رمز.',
};

export const SOLANA_WORDS: Record<Locale, Record<SolanaWarningCode | SolanaAdviceCode, SayParams>> = { en, ar, es, fr };
