/**
 * Words for an EVM contract's analysis, by `code`, one catalogue per locale: the warnings, the advice, and the notes
 * every chain's plan draws when a default is applied (`plan.*`). Each sentence is built from `params` (figures as
 * data), never from the English message.
 */
import { num, type SayParams } from './coded.js';
import { GUARDIAN_RULES } from './guardian-words.js';
import type { Locale } from './index.js';

/** EVM (and plan default) warning codes a person reads in the wizard; each has words in every locale. */
export const EVM_WARNING_CODES = [
  'evm.owner-release-only',
  'evm.owner-or-guardians-release',
  'evm.short-interval',
  'evm.long-interval',
  'evm.single-beneficiary',
  'evm.guardian-rules',
  'evm.any-one-guardian',
  'evm.all-guardians',
  'evm.guardian-is-beneficiary',
  'evm.beneficiary-cannot-claim',
  'evm.nft-recipient-not-beneficiary',
  'evm.token-behaviour',
  'evm.code-size',
  'plan.default-switch',
] as const;
export type EvmWarningCode = (typeof EVM_WARNING_CODES)[number];

/** EVM (and plan default) advice codes a person reads; each has words in every locale. */
export const EVM_ADVICE_CODES = [
  'evm.advice-enable-switch',
  'evm.advice-fallback-switch',
  'evm.advice-add-grace',
  'evm.advice-check-in',
  'evm.advice-second-beneficiary',
  'evm.advice-tell-guardians',
  'evm.advice-consider-guardians',
  'evm.advice-claim-own-address',
  'plan.advice-default-switch',
] as const;
export type EvmAdviceCode = (typeof EVM_ADVICE_CODES)[number];

/** EVM codes for developers (source checks, function names, recovery calls): shown as the service wrote them. */
export const EVM_TECHNICAL_CODES = [
  'evm.floating-pragma',
  'evm.tx-origin',
  'evm.selfdestruct',
  'evm.delegatecall',
  'evm.unchecked-call',
  'evm.unbounded-loop',
  'evm.missing-natspec',
  'evm.reentrancy',
  'evm.missing-event',
  'evm.advice-cancel',
  'evm.advice-rescue',
  'evm.advice-send-tokens',
  'evm.advice-deposit-nfts',
] as const;
export type EvmTechnicalCode = (typeof EVM_TECHNICAL_CODES)[number];

type EvmCatalog = Record<EvmWarningCode | EvmAdviceCode, SayParams>;

const en: EvmCatalog = {
  'evm.owner-release-only': () =>
    'Inactivity never releases the estate: only you can release it. If you die first, the funds stay locked.',
  'evm.owner-or-guardians-release': (p, f) =>
    `Inactivity never releases the estate: only you, or ${f.number(num(p, 'threshold'))} of your ${f.number(num(p, 'guardians'))} guardians, can release it.`,
  'evm.short-interval': (p, f) =>
    `If you miss check-ins for ${f.number(num(p, 'intervalDays'))} days (travel, illness), the estate can be released early.`,
  'evm.long-interval': (p, f) =>
    `Your heirs wait ${f.number(num(p, 'intervalDays'))} days after your last check-in before they can claim.`,
  'evm.single-beneficiary': () =>
    'One person receives everything: if they lose access to their wallet, nobody else can receive the estate.',
  'evm.guardian-rules': GUARDIAN_RULES.en,
  'evm.any-one-guardian': (p, f) =>
    `Any one of your ${f.number(num(p, 'guardians'))} guardians can start an early release; you then have ${f.number(num(p, 'waitDays'))} days to cancel it.`,
  'evm.all-guardians': (p, f) =>
    `All ${f.number(num(p, 'guardians'))} guardians must agree: if one loses their key, the guardians can no longer act.`,
  'evm.guardian-is-beneficiary': (p, f) =>
    `${f.number(num(p, 'count'))} of your guardians also receive a share and could vote to release the estate to themselves.`,
  'evm.beneficiary-cannot-claim': (p, f) =>
    `Beneficiary ${f.number(num(p, 'beneficiary'))} cannot claim: the address is a token contract or a system address.`,
  'evm.nft-recipient-not-beneficiary': (p, f) =>
    `NFT ${f.number(num(p, 'nft'))} goes to an address that has no share of the rest of the estate.`,
  'evm.token-behaviour': () =>
    'Tokens are shared from what the contract really holds: unusual tokens (rebasing, or with fees) can pay a little more or less than the exact share.',
  'evm.code-size': (p, f) =>
    `The contract is ${f.number(num(p, 'bytes'))} bytes, above the limit of ${f.number(num(p, 'limit'))}: it cannot be deployed on Ethereum.`,
  'plan.default-switch': (p, f) =>
    `No switch was chosen, so the default applies: check in at least once every ${f.number(num(p, 'intervalDays'))} days.`,
  'evm.advice-enable-switch': () =>
    'Turn the switch on or add guardians, so that the estate can be released after your death.',
  'evm.advice-fallback-switch': () => 'Consider turning the switch on as well, in case the guardians cannot act.',
  'evm.advice-add-grace': () =>
    'Consider a grace period, so that a late check-in or your guardians can still stop a wrong release.',
  'evm.advice-check-in': (p, f) =>
    `Check in at least once every ${f.number(num(p, 'intervalDays'))} days. Any other action of yours on the contract (a deposit, a change of the plan) counts too.`,
  'evm.advice-second-beneficiary': () =>
    'Consider a second beneficiary, or change the plan if the beneficiary loses access to their wallet.',
  'evm.advice-tell-guardians': (p, f) =>
    `Tell your guardians that a release they confirm only starts a ${f.number(num(p, 'waitDays'))}-day wait, and that any action of yours cancels it.`,
  'evm.advice-consider-guardians': () => 'Guardians could stop a wrong release, or confirm an early one.',
  'evm.advice-claim-own-address': () =>
    'Each beneficiary claims their share from their own wallet: tell them where the contract is and keep this page with your papers.',
  'plan.advice-default-switch': (p, f) =>
    `Check in at least once every ${f.number(num(p, 'intervalDays'))} days, or choose your own interval.`,
};

const fr: EvmCatalog = {
  'evm.owner-release-only': () =>
    'L’inactivité ne libère jamais le patrimoine\u00a0: vous seul pouvez le libérer. Si vous décédez avant, les fonds restent bloqués.',
  'evm.owner-or-guardians-release': (p, f) =>
    `L’inactivité ne libère jamais le patrimoine\u00a0: seuls vous, ou ${f.number(num(p, 'threshold'))} de vos ${f.number(num(p, 'guardians'))} gardiens, pouvez le libérer.`,
  'evm.short-interval': (p, f) =>
    `Si vous ne vous manifestez pas pendant ${f.number(num(p, 'intervalDays'))} jours (voyage, maladie), le patrimoine peut être libéré trop tôt.`,
  'evm.long-interval': (p, f) =>
    `Vos héritiers attendent ${f.number(num(p, 'intervalDays'))} jours après votre dernière manifestation avant de pouvoir réclamer.`,
  'evm.single-beneficiary': () =>
    'Une seule personne reçoit tout\u00a0: si elle perd l’accès à son portefeuille, personne d’autre ne peut recevoir le patrimoine.',
  'evm.guardian-rules': GUARDIAN_RULES.fr,
  'evm.any-one-guardian': (p, f) =>
    `N’importe lequel de vos ${f.number(num(p, 'guardians'))} gardiens peut lancer une libération anticipée\u00a0; vous avez alors ${f.number(num(p, 'waitDays'))} jours pour l’annuler.`,
  'evm.all-guardians': (p, f) =>
    `Les ${f.number(num(p, 'guardians'))} gardiens doivent tous être d’accord\u00a0: si l’un perd sa clé, les gardiens ne peuvent plus agir.`,
  'evm.guardian-is-beneficiary': (p, f) =>
    `${f.number(num(p, 'count'))} de vos gardiens reçoivent aussi une part et pourraient voter une libération à leur profit.`,
  'evm.beneficiary-cannot-claim': (p, f) =>
    `Le bénéficiaire ${f.number(num(p, 'beneficiary'))} ne peut pas réclamer\u00a0: l’adresse est un contrat de jeton ou une adresse système.`,
  'evm.nft-recipient-not-beneficiary': (p, f) =>
    `Le NFT ${f.number(num(p, 'nft'))} va à une adresse qui n’a aucune part du reste du patrimoine.`,
  'evm.token-behaviour': () =>
    'Les jetons sont partagés d’après ce que le contrat détient réellement\u00a0: des jetons inhabituels (à rebasage ou à frais) peuvent verser un peu plus ou un peu moins que la part exacte.',
  'evm.code-size': (p, f) =>
    `Le contrat fait ${f.number(num(p, 'bytes'))} octets, au-delà de la limite de ${f.number(num(p, 'limit'))}\u00a0: il ne peut pas être déployé sur Ethereum.`,
  'plan.default-switch': (p, f) =>
    `Aucune minuterie n’a été choisie, celle par défaut s’applique\u00a0: manifestez-vous au moins tous les ${f.number(num(p, 'intervalDays'))} jours.`,
  'evm.advice-enable-switch': () =>
    'Activez la minuterie ou ajoutez des gardiens, pour que le patrimoine puisse être libéré après votre décès.',
  'evm.advice-fallback-switch': () =>
    'Pensez à activer aussi la minuterie, au cas où les gardiens ne pourraient pas agir.',
  'evm.advice-add-grace': () =>
    'Pensez à un délai de grâce\u00a0: une manifestation tardive ou vos gardiens pourront encore arrêter une libération injustifiée.',
  'evm.advice-check-in': (p, f) =>
    `Manifestez-vous au moins une fois tous les ${f.number(num(p, 'intervalDays'))} jours. Toute autre action de votre part sur le contrat (un dépôt, une modification du plan) compte aussi.`,
  'evm.advice-second-beneficiary': () =>
    'Pensez à un second bénéficiaire, ou modifiez le plan si le bénéficiaire perd l’accès à son portefeuille.',
  'evm.advice-tell-guardians': (p, f) =>
    `Dites à vos gardiens qu’une libération qu’ils confirment ne fait qu’ouvrir un délai de ${f.number(num(p, 'waitDays'))} jours, et que toute action de votre part l’annule.`,
  'evm.advice-consider-guardians': () =>
    'Des gardiens pourraient arrêter une libération injustifiée, ou confirmer une libération anticipée.',
  'evm.advice-claim-own-address': () =>
    'Chaque bénéficiaire réclame sa part depuis son propre portefeuille\u00a0: dites-leur où se trouve le contrat et gardez cette page avec vos papiers.',
  'plan.advice-default-switch': (p, f) =>
    `Manifestez-vous au moins une fois tous les ${f.number(num(p, 'intervalDays'))} jours, ou choisissez votre propre intervalle.`,
};

const es: EvmCatalog = {
  'evm.owner-release-only': () =>
    'La inactividad nunca libera el patrimonio: solo usted puede liberarlo. Si fallece antes, los fondos quedan bloqueados.',
  'evm.owner-or-guardians-release': (p, f) =>
    `La inactividad nunca libera el patrimonio: solo usted, o ${f.number(num(p, 'threshold'))} de sus ${f.number(num(p, 'guardians'))} guardianes, pueden liberarlo.`,
  'evm.short-interval': (p, f) =>
    `Si no da señales de vida durante ${f.number(num(p, 'intervalDays'))} días (un viaje, una enfermedad), el patrimonio puede liberarse antes de tiempo.`,
  'evm.long-interval': (p, f) =>
    `Sus herederos esperan ${f.number(num(p, 'intervalDays'))} días desde su última señal de vida antes de poder reclamar.`,
  'evm.single-beneficiary': () =>
    'Una sola persona lo recibe todo: si pierde el acceso a su monedero, nadie más puede recibir el patrimonio.',
  'evm.guardian-rules': GUARDIAN_RULES.es,
  'evm.any-one-guardian': (p, f) =>
    `Cualquiera de sus ${f.number(num(p, 'guardians'))} guardianes puede iniciar una liberación anticipada; usted tiene entonces ${f.number(num(p, 'waitDays'))} días para cancelarla.`,
  'evm.all-guardians': (p, f) =>
    `Los ${f.number(num(p, 'guardians'))} guardianes deben estar de acuerdo: si uno pierde su clave, los guardianes ya no pueden actuar.`,
  'evm.guardian-is-beneficiary': (p, f) =>
    `${f.number(num(p, 'count'))} de sus guardianes también reciben una parte y podrían votar liberar el patrimonio a su favor.`,
  'evm.beneficiary-cannot-claim': (p, f) =>
    `El beneficiario ${f.number(num(p, 'beneficiary'))} no puede reclamar: la dirección es un contrato de token o una dirección del sistema.`,
  'evm.nft-recipient-not-beneficiary': (p, f) =>
    `El NFT ${f.number(num(p, 'nft'))} va a una dirección que no tiene parte del resto del patrimonio.`,
  'evm.token-behaviour': () =>
    'Los tokens se reparten según lo que el contrato tiene realmente: tokens poco comunes (con rebase o comisiones) pueden pagar algo más o algo menos que la parte exacta.',
  'evm.code-size': (p, f) =>
    `El contrato ocupa ${f.number(num(p, 'bytes'))} bytes, por encima del límite de ${f.number(num(p, 'limit'))}: no puede desplegarse en Ethereum.`,
  'plan.default-switch': (p, f) =>
    `No se eligió un interruptor, así que se aplica el predeterminado: dé señales de vida al menos cada ${f.number(num(p, 'intervalDays'))} días.`,
  'evm.advice-enable-switch': () =>
    'Active el interruptor o añada guardianes, para que el patrimonio pueda liberarse tras su fallecimiento.',
  'evm.advice-fallback-switch': () =>
    'Considere activar también el interruptor, por si los guardianes no pudieran actuar.',
  'evm.advice-add-grace': () =>
    'Considere un periodo de gracia: una señal de vida tardía o sus guardianes aún podrán detener una liberación indebida.',
  'evm.advice-check-in': (p, f) =>
    `Dé señales de vida al menos una vez cada ${f.number(num(p, 'intervalDays'))} días. Cualquier otra acción suya en el contrato (un depósito, un cambio del plan) también cuenta.`,
  'evm.advice-second-beneficiary': () =>
    'Considere un segundo beneficiario, o cambie el plan si el beneficiario pierde el acceso a su monedero.',
  'evm.advice-tell-guardians': (p, f) =>
    `Explique a sus guardianes que una liberación que confirmen solo inicia una espera de ${f.number(num(p, 'waitDays'))} días, y que cualquier acción suya la cancela.`,
  'evm.advice-consider-guardians': () =>
    'Unos guardianes podrían detener una liberación indebida o confirmar una anticipada.',
  'evm.advice-claim-own-address': () =>
    'Cada beneficiario reclama su parte desde su propio monedero: dígales dónde está el contrato y guarde esta página con sus documentos.',
  'plan.advice-default-switch': (p, f) =>
    `Dé señales de vida al menos una vez cada ${f.number(num(p, 'intervalDays'))} días, o elija su propio intervalo.`,
};

const ar: EvmCatalog = {
  'evm.owner-release-only': () => 'الخمول لا يحرّر التركة أبدًا: لا يحرّرها إلا أنت. إن توفيت قبل ذلك بقيت الأموال مقفلة.',
  'evm.owner-or-guardians-release': (p, f) =>
    `الخمول لا يحرّر التركة أبدًا: لا يحرّرها إلا أنت، أو ${f.number(num(p, 'threshold'))} من أوصيائك الـ${f.number(num(p, 'guardians'))}.`,
  'evm.short-interval': (p, f) =>
    `إن غبت عن تأكيد الحضور ${f.number(num(p, 'intervalDays'))} يومًا (سفر أو مرض) فقد تُحرَّر التركة قبل الأوان.`,
  'evm.long-interval': (p, f) =>
    `ينتظر ورثتك ${f.number(num(p, 'intervalDays'))} يومًا بعد آخر تأكيد حضور لك قبل أن يطالبوا.`,
  'evm.single-beneficiary': () =>
    'شخص واحد يحصل على كل شيء: إن فقد الوصول إلى محفظته فلن يستطيع أحد غيره استلام التركة.',
  'evm.guardian-rules': GUARDIAN_RULES.ar,
  'evm.any-one-guardian': (p, f) =>
    `يستطيع أي واحد من أوصيائك الـ${f.number(num(p, 'guardians'))} بدء تحرير مبكر، ولديك حينها ${f.number(num(p, 'waitDays'))} يومًا لإلغائه.`,
  'evm.all-guardians': (p, f) =>
    `يجب أن يتفق الأوصياء الـ${f.number(num(p, 'guardians'))} جميعًا: إن فقد أحدهم مفتاحه لم يعد بوسع الأوصياء التصرف.`,
  'evm.guardian-is-beneficiary': (p, f) =>
    `${f.number(num(p, 'count'))} من أوصيائك يحصلون أيضًا على حصة وقد يصوّتون لتحرير التركة لأنفسهم.`,
  'evm.beneficiary-cannot-claim': (p, f) =>
    `لا يستطيع المستفيد ${f.number(num(p, 'beneficiary'))} المطالبة: العنوان عقد رمز أو عنوان نظام.`,
  'evm.nft-recipient-not-beneficiary': (p, f) =>
    `الرمز غير القابل للاستبدال ${f.number(num(p, 'nft'))} يذهب إلى عنوان لا حصة له في بقية التركة.`,
  'evm.token-behaviour': () =>
    'تُقسم الرموز بحسب ما يملكه العقد فعلًا: قد تدفع الرموز غير المعتادة (ذات إعادة التوازن أو الرسوم) أكثر أو أقل قليلًا من الحصة الدقيقة.',
  'evm.code-size': (p, f) =>
    `حجم العقد ${f.number(num(p, 'bytes'))} بايت، فوق الحد البالغ ${f.number(num(p, 'limit'))}: لا يمكن نشره على إيثريوم.`,
  'plan.default-switch': (p, f) =>
    `لم يُختر مؤقّت، فطُبّق المؤقّت الافتراضي: أكّد حضورك مرة كل ${f.number(num(p, 'intervalDays'))} يومًا على الأقل.`,
  'evm.advice-enable-switch': () => 'فعّل المؤقّت أو أضف أوصياء، كي يمكن تحرير التركة بعد وفاتك.',
  'evm.advice-fallback-switch': () => 'فكّر في تفعيل المؤقّت أيضًا، تحسّبًا لعجز الأوصياء عن التصرف.',
  'evm.advice-add-grace': () => 'فكّر في مهلة سماح، كي يتمكن تأكيد حضور متأخر أو أوصياؤك من إيقاف تحرير خاطئ.',
  'evm.advice-check-in': (p, f) =>
    `أكّد حضورك مرة كل ${f.number(num(p, 'intervalDays'))} يومًا على الأقل. وكل إجراء آخر منك على العقد (إيداع أو تعديل للخطة) يُحتسب أيضًا.`,
  'evm.advice-second-beneficiary': () => 'فكّر في مستفيد ثانٍ، أو عدّل الخطة إن فقد المستفيد الوصول إلى محفظته.',
  'evm.advice-tell-guardians': (p, f) =>
    `أخبر أوصياءك أن التحرير الذي يؤكدونه لا يبدأ إلا مهلة ${f.number(num(p, 'waitDays'))} يومًا، وأن أي إجراء منك يلغيه.`,
  'evm.advice-consider-guardians': () => 'يمكن للأوصياء إيقاف تحرير خاطئ أو تأكيد تحرير مبكر.',
  'evm.advice-claim-own-address': () =>
    'يطالب كل مستفيد بحصته من محفظته الخاصة: أخبرهم أين العقد واحفظ هذه الصفحة مع أوراقك.',
  'plan.advice-default-switch': (p, f) =>
    `أكّد حضورك مرة كل ${f.number(num(p, 'intervalDays'))} يومًا على الأقل، أو اختر مدة بنفسك.`,
};

export const EVM_WORDS: Record<Locale, EvmCatalog> = { en, ar, es, fr };
