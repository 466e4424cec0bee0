/**
 * Words for a TON contract's analysis, by `code`, one catalogue per locale: the warnings (./coded.ts) and the advice
 * that goes with them. Each sentence is built from `params` (figures as data; amounts in nanoton), never from the
 * English message.
 */
import { coins, num, type SayParams } from './coded.js';
import { GUARDIAN_RULES } from './guardian-words.js';
import type { Locale } from './index.js';

/** TON warning codes a person reads in the wizard; each has words in every locale (the type says so). */
export const TON_WARNING_CODES = [
  'ton.owner-release-only',
  'ton.no-grace-period',
  'ton.short-interval',
  'ton.no-guardians',
  'ton.guardian-rules',
  'ton.any-one-guardian',
  'ton.all-guardians',
  'ton.guardians-no-veto',
  'ton.jetton-notifications',
  'ton.jetton-claims',
  'ton.storage-reserve',
  'ton.cancel-returns-all',
  'ton.cancel-keeps-reserve',
  'ton.bounceable-payouts',
  'ton.claim-index',
] as const;
export type TonWarningCode = (typeof TON_WARNING_CODES)[number];

/** TON advice codes (the analysis's `advice`); each has words in every locale. */
export const TON_ADVICE_CODES = [
  'ton.advice-enable-switch',
  'ton.advice-add-grace',
  'ton.advice-longer-interval',
  'ton.advice-consider-guardians',
  'ton.advice-tell-guardians',
  'ton.advice-majority-threshold',
  'ton.advice-lower-threshold',
  'ton.advice-forward-amount',
  'ton.advice-list-jettons',
  'ton.advice-deploy-value',
  'ton.advice-check-in',
] as const;
export type TonAdviceCode = (typeof TON_ADVICE_CODES)[number];

/** TON warning codes for developers (message flows, on-chain checks): shown as the service wrote them. */
export const TON_TECHNICAL_CODES = [
  'ton.jetton-discovery',
  'ton.jetton-cancel-bounce',
  'ton.unlisted-jettons',
  'ton.onchain-update-checks',
] as const;
export type TonTechnicalCode = (typeof TON_TECHNICAL_CODES)[number];

type TonCatalog = Record<TonWarningCode | TonAdviceCode, SayParams>;

/** An amount in nanoton, written in TON. */
const ton = (p: Parameters<SayParams>[0], key: string, locale: Locale) => coins(p, key, 9, locale);

const en: TonCatalog = {
  'ton.owner-release-only': () =>
    'Inactivity never releases the estate and there are no guardians: only you can release it. If you cannot act, the funds stay locked.',
  'ton.no-grace-period': () => 'There is no grace period: a missed check-in releases the estate at the deadline.',
  'ton.short-interval': (p, f) =>
    `If you miss check-ins for ${f.number(num(p, 'intervalDays'))} days (travel, illness), the estate can be released early.`,
  'ton.no-guardians': () => 'There are no guardians to stop the switch if it goes off by mistake.',
  'ton.guardian-rules': GUARDIAN_RULES.en,
  'ton.any-one-guardian': (p, f) =>
    `Any one of your ${f.number(num(p, 'guardians'))} guardians can start an early release; you then have ${f.number(num(p, 'waitDays'))} days to cancel it.`,
  'ton.all-guardians': () => 'All guardians must act: if one loses their wallet, the guardians can no longer act.',
  'ton.guardians-no-veto': () =>
    'Your guardians can confirm an early release, but they cannot postpone one: that needs a grace period, which this plan does not have.',
  'ton.jetton-notifications': () =>
    'Only jettons sent with a notification to the contract are shared; jettons sent without one stay in its wallet, undistributed.',
  'ton.jetton-claims': (p, _f, l) =>
    `Your heirs claim each jetton with its own message, attaching about ${ton(p, 'claimNanoton', l)} TON for the transfer; a claim whose transfer fails can be made again.`,
  'ton.storage-reserve': (p, f, l) =>
    `Keeping the contract on TON costs about ${ton(p, 'rentPerYearNanoton', l)} TON a year. A reserve of ${ton(p, 'reserveNanoton', l)} TON is kept out of the estate to pay it (alone it lasts about ${f.number(num(p, 'reserveYears'))} years); your heirs share the rest.`,
  'ton.cancel-returns-all': () =>
    'You can cancel before the deadline: the whole balance comes back to you, and deposits are refused from then on.',
  'ton.cancel-keeps-reserve': () =>
    'You can cancel before the deadline: every jetton and the TON above the reserve come back to you, and deposits are refused from then on.',
  'ton.bounceable-payouts': () =>
    'A payment to a wallet that cannot receive it comes back to the contract and can be claimed again.',
  'ton.claim-index': () =>
    'Each heir claims from their own wallet, with their number in the plan; the deployment script lists the order.',
  'ton.advice-enable-switch': () =>
    'Turn the switch on or appoint guardians, so that the estate can be released without you.',
  'ton.advice-add-grace': () =>
    'Consider a grace period, so that a late check-in or your guardians can still stop a wrong release.',
  'ton.advice-longer-interval': (p, f) => `Choose an interval of at least ${f.number(num(p, 'minDays'))} days.`,
  'ton.advice-consider-guardians': () => 'Consider two or three guardians, with a majority needed to act.',
  'ton.advice-tell-guardians': () =>
    'Tell your guardians that their confirmation only starts a waiting period, and that any message you send the contract (a check-in, a deposit) cancels it.',
  'ton.advice-majority-threshold': () => 'Consider requiring a majority of your guardians to act.',
  'ton.advice-lower-threshold': () =>
    'Consider requiring fewer guardians than you have, so one lost wallet blocks nothing.',
  'ton.advice-forward-amount': (p, _f, l) =>
    `Always send jettons to the contract with a forward amount of TON (for example ${ton(p, 'forwardNanoton', l)} TON).`,
  'ton.advice-list-jettons': () =>
    'List in the plan every jetton the estate holds or may receive; ask whoever sends you other jettons to attach a forward amount of TON.',
  'ton.advice-deploy-value': (p, _f, l) =>
    `Send at least ${ton(p, 'depositNanoton', l)} TON with the deployment: the reserve is never distributed.`,
  'ton.advice-check-in': () => 'Check in well before each deadline and keep the deployment script with your papers.',
};

const fr: TonCatalog = {
  'ton.owner-release-only': () =>
    'L’inactivité ne libère jamais le patrimoine et il n’y a pas de gardiens\u00a0: vous seul pouvez le libérer. Si vous ne pouvez plus agir, les fonds restent bloqués.',
  'ton.no-grace-period': () =>
    'Il n’y a pas de délai de grâce\u00a0: une manifestation manquée libère le patrimoine à l’échéance.',
  'ton.short-interval': (p, f) =>
    `Si vous ne vous manifestez pas pendant ${f.number(num(p, 'intervalDays'))} jours (voyage, maladie), le patrimoine peut être libéré trop tôt.`,
  'ton.no-guardians': () => 'Aucun gardien ne peut arrêter la minuterie si elle se déclenche par erreur.',
  'ton.guardian-rules': GUARDIAN_RULES.fr,
  'ton.any-one-guardian': (p, f) =>
    `N’importe lequel de vos ${f.number(num(p, 'guardians'))} gardiens peut lancer une libération anticipée\u00a0; vous avez alors ${f.number(num(p, 'waitDays'))} jours pour l’annuler.`,
  'ton.all-guardians': () =>
    'Tous les gardiens doivent agir\u00a0: si l’un perd son portefeuille, les gardiens ne peuvent plus agir.',
  'ton.guardians-no-veto': () =>
    'Vos gardiens peuvent confirmer une libération anticipée, mais pas en retarder une\u00a0: il faudrait un délai de grâce, que ce plan n’a pas.',
  'ton.jetton-notifications': () =>
    'Seuls les jettons envoyés au contrat avec une notification sont partagés\u00a0; ceux envoyés sans notification restent dans son portefeuille, non distribués.',
  'ton.jetton-claims': (p, _f, l) =>
    `Vos héritiers réclament chaque jetton par un message distinct, accompagné d’environ ${ton(p, 'claimNanoton', l)} TON pour le transfert\u00a0; une réclamation dont le transfert échoue peut être refaite.`,
  'ton.storage-reserve': (p, f, l) =>
    `Garder le contrat sur TON coûte environ ${ton(p, 'rentPerYearNanoton', l)} TON par an. Une réserve de ${ton(p, 'reserveNanoton', l)} TON est mise de côté pour la payer (elle suffit seule pour environ ${f.number(num(p, 'reserveYears'))} ans)\u00a0; vos héritiers se partagent le reste.`,
  'ton.cancel-returns-all': () =>
    'Vous pouvez annuler avant l’échéance\u00a0: tout le solde vous revient, et les dépôts sont ensuite refusés.',
  'ton.cancel-keeps-reserve': () =>
    'Vous pouvez annuler avant l’échéance\u00a0: chaque jeton et les TON au-delà de la réserve vous reviennent, et les dépôts sont ensuite refusés.',
  'ton.bounceable-payouts': () =>
    'Un paiement vers un portefeuille qui ne peut pas le recevoir revient au contrat et peut être réclamé de nouveau.',
  'ton.claim-index': () =>
    'Chaque héritier réclame depuis son propre portefeuille, avec son numéro dans le plan\u00a0; le script de déploiement en donne l’ordre.',
  'ton.advice-enable-switch': () =>
    'Activez la minuterie ou désignez des gardiens, pour que le patrimoine puisse être libéré sans vous.',
  'ton.advice-add-grace': () =>
    'Pensez à un délai de grâce\u00a0: une manifestation tardive ou vos gardiens pourront encore arrêter une libération injustifiée.',
  'ton.advice-longer-interval': (p, f) => `Choisissez un intervalle d’au moins ${f.number(num(p, 'minDays'))} jours.`,
  'ton.advice-consider-guardians': () =>
    'Pensez à deux ou trois gardiens, dont une majorité devra être d’accord pour agir.',
  'ton.advice-tell-guardians': () =>
    'Dites à vos gardiens que leur confirmation ne fait qu’ouvrir un délai d’attente, et que tout message de votre part au contrat (une manifestation, un dépôt) l’annule.',
  'ton.advice-majority-threshold': () => 'Pensez à exiger une majorité de vos gardiens pour agir.',
  'ton.advice-lower-threshold': () =>
    'Pensez à exiger moins de gardiens que vous n’en avez, pour qu’un portefeuille perdu ne bloque rien.',
  'ton.advice-forward-amount': (p, _f, l) =>
    `Envoyez toujours les jettons au contrat avec un montant de TON transmis (par exemple ${ton(p, 'forwardNanoton', l)} TON).`,
  'ton.advice-list-jettons': () =>
    'Listez dans le plan chaque jetton que le patrimoine détient ou pourrait recevoir\u00a0; demandez à qui vous envoie d’autres jettons de joindre un montant de TON transmis.',
  'ton.advice-deploy-value': (p, _f, l) =>
    `Envoyez au moins ${ton(p, 'depositNanoton', l)} TON avec le déploiement\u00a0: la réserve n’est jamais distribuée.`,
  'ton.advice-check-in': () =>
    'Manifestez-vous bien avant chaque échéance et gardez le script de déploiement avec vos papiers.',
};

const es: TonCatalog = {
  'ton.owner-release-only': () =>
    'La inactividad nunca libera el patrimonio y no hay guardianes: solo usted puede liberarlo. Si no puede actuar, los fondos quedan bloqueados.',
  'ton.no-grace-period': () =>
    'No hay periodo de gracia: una señal de vida que falte libera el patrimonio al llegar el plazo.',
  'ton.short-interval': (p, f) =>
    `Si no da señales de vida durante ${f.number(num(p, 'intervalDays'))} días (un viaje, una enfermedad), el patrimonio puede liberarse antes de tiempo.`,
  'ton.no-guardians': () => 'No hay guardianes que puedan detener el interruptor si se activa por error.',
  'ton.guardian-rules': GUARDIAN_RULES.es,
  'ton.any-one-guardian': (p, f) =>
    `Cualquiera de sus ${f.number(num(p, 'guardians'))} guardianes puede iniciar una liberación anticipada; usted tiene entonces ${f.number(num(p, 'waitDays'))} días para cancelarla.`,
  'ton.all-guardians': () =>
    'Todos los guardianes deben actuar: si uno pierde su monedero, los guardianes ya no pueden actuar.',
  'ton.guardians-no-veto': () =>
    'Sus guardianes pueden confirmar una liberación anticipada, pero no aplazarla: para eso haría falta un periodo de gracia, que este plan no tiene.',
  'ton.jetton-notifications': () =>
    'Solo se reparten los jettons enviados al contrato con una notificación; los enviados sin ella se quedan en su monedero sin repartir.',
  'ton.jetton-claims': (p, _f, l) =>
    `Sus herederos reclaman cada jetton con un mensaje propio, adjuntando unos ${ton(p, 'claimNanoton', l)} TON para la transferencia; una reclamación cuya transferencia falla puede repetirse.`,
  'ton.storage-reserve': (p, f, l) =>
    `Mantener el contrato en TON cuesta unos ${ton(p, 'rentPerYearNanoton', l)} TON al año. Se aparta del patrimonio una reserva de ${ton(p, 'reserveNanoton', l)} TON para pagarlo (por sí sola dura unos ${f.number(num(p, 'reserveYears'))} años); sus herederos se reparten el resto.`,
  'ton.cancel-returns-all': () =>
    'Puede cancelar antes del plazo: todo el saldo vuelve a usted y desde entonces se rechazan los depósitos.',
  'ton.cancel-keeps-reserve': () =>
    'Puede cancelar antes del plazo: cada jetton y los TON por encima de la reserva vuelven a usted, y desde entonces se rechazan los depósitos.',
  'ton.bounceable-payouts': () =>
    'Un pago a un monedero que no puede recibirlo vuelve al contrato y puede reclamarse de nuevo.',
  'ton.claim-index': () =>
    'Cada heredero reclama desde su propio monedero, con su número en el plan; el script de despliegue indica el orden.',
  'ton.advice-enable-switch': () =>
    'Active el interruptor o nombre guardianes, para que el patrimonio pueda liberarse sin usted.',
  'ton.advice-add-grace': () =>
    'Considere un periodo de gracia: una señal de vida tardía o sus guardianes aún podrán detener una liberación indebida.',
  'ton.advice-longer-interval': (p, f) => `Elija un intervalo de al menos ${f.number(num(p, 'minDays'))} días.`,
  'ton.advice-consider-guardians': () =>
    'Considere dos o tres guardianes, de los que una mayoría deba estar de acuerdo para actuar.',
  'ton.advice-tell-guardians': () =>
    'Explique a sus guardianes que su confirmación solo inicia un periodo de espera, y que cualquier mensaje suyo al contrato (una señal de vida, un depósito) la cancela.',
  'ton.advice-majority-threshold': () => 'Considere exigir una mayoría de sus guardianes para actuar.',
  'ton.advice-lower-threshold': () =>
    'Considere exigir menos guardianes de los que tiene, para que un monedero perdido no bloquee nada.',
  'ton.advice-forward-amount': (p, _f, l) =>
    `Envíe siempre los jettons al contrato con un importe de TON reenviado (por ejemplo ${ton(p, 'forwardNanoton', l)} TON).`,
  'ton.advice-list-jettons': () =>
    'Incluya en el plan cada jetton que el patrimonio tiene o pueda recibir; pida a quien le envíe otros jettons que adjunte un importe de TON reenviado.',
  'ton.advice-deploy-value': (p, _f, l) =>
    `Envíe al menos ${ton(p, 'depositNanoton', l)} TON con el despliegue: la reserva nunca se reparte.`,
  'ton.advice-check-in': () =>
    'Dé señales de vida mucho antes de cada plazo y guarde el script de despliegue con sus documentos.',
};

const ar: TonCatalog = {
  'ton.owner-release-only': () =>
    'الخمول لا يحرّر التركة أبدًا ولا يوجد أوصياء: لا يحرّرها إلا أنت. إن عجزت عن التصرف بقيت الأموال مقفلة.',
  'ton.no-grace-period': () => 'لا توجد مهلة سماح: أي تأكيد حضور فائت يحرّر التركة عند حلول الموعد.',
  'ton.short-interval': (p, f) =>
    `إن غبت عن تأكيد الحضور ${f.number(num(p, 'intervalDays'))} يومًا (سفر أو مرض) فقد تُحرَّر التركة قبل الأوان.`,
  'ton.no-guardians': () => 'لا يوجد أوصياء يستطيعون إيقاف المؤقّت إن انطلق خطأً.',
  'ton.guardian-rules': GUARDIAN_RULES.ar,
  'ton.any-one-guardian': (p, f) =>
    `يستطيع أي واحد من أوصيائك الـ${f.number(num(p, 'guardians'))} بدء تحرير مبكر، ولديك حينها ${f.number(num(p, 'waitDays'))} يومًا لإلغائه.`,
  'ton.all-guardians': () => 'يجب أن يتصرف الأوصياء جميعًا: إن فقد أحدهم محفظته لم يعد بوسع الأوصياء التصرف.',
  'ton.guardians-no-veto': () =>
    'يستطيع أوصياؤك تأكيد تحرير مبكر لكنهم لا يستطيعون تأجيل تحرير: فذلك يحتاج مهلة سماح، وهذه الخطة بلا مهلة.',
  'ton.jetton-notifications': () =>
    'لا تُقسم إلا الجيتونات المرسلة إلى العقد مع إشعار؛ أما المرسلة دونه فتبقى في محفظته دون توزيع.',
  'ton.jetton-claims': (p, _f, l) =>
    `يطالب ورثتك بكل جيتون برسالة مستقلة، مرفقة بنحو ${ton(p, 'claimNanoton', l)} TON للتحويل؛ والمطالبة التي يفشل تحويلها يمكن تكرارها.`,
  'ton.storage-reserve': (p, f, l) =>
    `إبقاء العقد على شبكة TON يكلّف نحو ${ton(p, 'rentPerYearNanoton', l)} TON في السنة. يُحجز احتياطي قدره ${ton(p, 'reserveNanoton', l)} TON من التركة لدفعها (يكفي وحده نحو ${f.number(num(p, 'reserveYears'))} سنة)، ويتقاسم ورثتك الباقي.`,
  'ton.cancel-returns-all': () => 'يمكنك الإلغاء قبل الموعد: يعود إليك الرصيد كله، وتُرفض الإيداعات بعد ذلك.',
  'ton.cancel-keeps-reserve': () =>
    'يمكنك الإلغاء قبل الموعد: يعود إليك كل جيتون وما زاد على الاحتياطي من TON، وتُرفض الإيداعات بعد ذلك.',
  'ton.bounceable-payouts': () => 'الدفعة إلى محفظة لا تستطيع استلامها تعود إلى العقد ويمكن المطالبة بها من جديد.',
  'ton.claim-index': () => 'يطالب كل وارث من محفظته الخاصة برقمه في الخطة، ويبيّن سكربت النشر الترتيب.',
  'ton.advice-enable-switch': () => 'فعّل المؤقّت أو عيّن أوصياء، كي يمكن تحرير التركة من دونك.',
  'ton.advice-add-grace': () => 'فكّر في مهلة سماح، كي يتمكن تأكيد حضور متأخر أو أوصياؤك من إيقاف تحرير خاطئ.',
  'ton.advice-longer-interval': (p, f) => `اختر مدة لا تقل عن ${f.number(num(p, 'minDays'))} يومًا.`,
  'ton.advice-consider-guardians': () => 'فكّر في وصيّين أو ثلاثة، تلزم موافقة أغلبيتهم للتصرف.',
  'ton.advice-tell-guardians': () =>
    'أخبر أوصياءك أن تأكيدهم لا يبدأ إلا مهلة انتظار، وأن أي رسالة منك إلى العقد (تأكيد حضور أو إيداع) تلغيها.',
  'ton.advice-majority-threshold': () => 'فكّر في اشتراط أغلبية أوصيائك للتصرف.',
  'ton.advice-lower-threshold': () => 'فكّر في اشتراط عدد من الأوصياء أقل من عددهم، كي لا تعطّل محفظة مفقودة شيئًا.',
  'ton.advice-forward-amount': (p, _f, l) =>
    `أرسل الجيتونات إلى العقد دائمًا مع مبلغ TON مُمرَّر (مثلًا ${ton(p, 'forwardNanoton', l)} TON).`,
  'ton.advice-list-jettons': () =>
    'اذكر في الخطة كل جيتون تملكه التركة أو قد تتلقاه، واطلب ممن يرسل إليك جيتونات أخرى إرفاق مبلغ TON مُمرَّر.',
  'ton.advice-deploy-value': (p, _f, l) =>
    `أرسل ${ton(p, 'depositNanoton', l)} TON على الأقل مع النشر: الاحتياطي لا يُوزَّع أبدًا.`,
  'ton.advice-check-in': () => 'أكّد حضورك قبل كل موعد بوقت كافٍ واحفظ سكربت النشر مع أوراقك.',
};

export const TON_WORDS: Record<Locale, TonCatalog> = { en, ar, es, fr };
