/**
 * The words of a generated contract's analysis (./advice.ts), one catalogue per locale. `n` holds the figures of the
 * service's English sentence, in order; `f` writes them in the reader's conventions.
 */
import type { Say } from './catalog.js';
import type { Locale } from './index.js';

/** Every suggestion the wizard has words for, and how its English text opens. */
export const SUGGESTIONS = {
  checkIn: /^Check in before ([\d,]+) days/,
  defaultSwitch: /^The default dead man's switch \(([\d,]+) days\)/,
  addGrace: /^(Add a grace period|Set a grace period)/,
  tellGuardians: /^Tell your guardians that confirmRelease\(\) only starts a ([\d,]+)-day wait/,
  secondBeneficiary: /^Consider a second beneficiary/,
  considerGuardians: /^Guardians \(multiSig\) could veto/,
  enableSwitch: /^(Enable the dead man's switch or add guardians|Enable the dead man's switch so)/,
  fallbackSwitch: /^Consider enabling the dead man's switch as a fallback/,
  claimOwnAddress: /^Beneficiaries claim from their own address/,
} as const;
export type SuggestionId = keyof typeof SUGGESTIONS;

/** Warning ids with words, and the figures each reads from its English message, in order. */
export const WARNING_IDS = [
  'no-dead-mans-switch',
  'short-interval',
  'long-interval',
  'single-beneficiary',
  'guardian-threshold',
  'single-guardian-release',
  'unanimous-guardians',
  'guardian-threshold-one',
  'guardian-threshold-all',
  'guardian-is-beneficiary',
  'beneficiary-is-contract',
  'nft-recipient-not-beneficiary',
  'default-dead-mans-switch',
  'code-size',
  'token-behaviour',
  'no-grace-period',
] as const;
export type WarningId = (typeof WARNING_IDS)[number];

/** Every id has words in every locale (the type says so). */
type AdviceCatalog = { warnings: Record<WarningId, Say>; suggestions: Record<SuggestionId, Say> };

const en: AdviceCatalog = {
  warnings: {
    'no-dead-mans-switch': (n, f) =>
      n.length === 2
        ? `Inactivity never releases the estate: only you, or ${f.number(n[0]!)} of your ${f.number(n[1]!)} guardians, can release it.`
        : n.length === 1
          ? 'Inactivity never releases the estate: only you, or your guardians, can release it.'
          : 'Inactivity never releases the estate: only you can release it. If you die first, the funds stay locked.',
    'short-interval': (n, f) =>
      `If you miss check-ins for ${f.number(n[0] ?? 0)} days (travel, illness), the estate can be released early.`,
    'long-interval': (n, f) =>
      `Your heirs wait ${f.number(n[0] ?? 0)} days after your last check-in before they can claim.`,
    'single-beneficiary': () =>
      'One person receives everything: if they lose access to their wallet, nobody else can receive the estate.',
    'guardian-threshold': (n, f) =>
      `${f.number(n[0] ?? 1)} of your ${f.number(n[1] ?? 1)} guardians together can start an early release. It happens only if you show no sign of life for ${f.number(n[2] ?? 30)} days, so they can never overrule you.`,
    'single-guardian-release': (n, f) =>
      `Any one of your ${f.number(n[0] ?? 2)} guardians can start an early release; you then have ${f.number(n[1] ?? 30)} days to cancel it.`,
    'guardian-threshold-one': (n, f) =>
      `Any one of your ${f.number(n[0] ?? 2)} guardians can start an early release; you then have ${f.number(n[1] ?? 30)} days to cancel it.`,
    'unanimous-guardians': (n, f) =>
      `All ${f.number(n[0] ?? 2)} guardians must agree: if one loses their key, the guardians can no longer act.`,
    'guardian-threshold-all': () =>
      'All guardians must agree: if one loses their key, the guardians can no longer act.',
    'guardian-is-beneficiary': (n, f) =>
      `${f.number(n[0] ?? 1)} of your guardians also receive a share and could vote to release the estate to themselves.`,
    'beneficiary-is-contract': (n, f) =>
      `Beneficiary ${f.number(n[0] ?? 1)} cannot claim: the address is a token contract or a system address.`,
    'nft-recipient-not-beneficiary': (n, f) =>
      `NFT ${f.number(n[0] ?? 1)} goes to an address that has no share of the rest of the estate.`,
    'default-dead-mans-switch': (n, f) =>
      `No switch was chosen, so the default applies: check in at least once every ${f.number(n[0] ?? 365)} days.`,
    'code-size': () => 'The contract is too large to be deployed on Ethereum.',
    'token-behaviour': () =>
      'Tokens are shared from what the contract really holds: unusual tokens (rebasing, or with fees) can pay a little more or less than the exact share.',
    'no-grace-period': () => 'There is no grace period: a missed check-in releases the estate at once.',
  },
  suggestions: {
    checkIn: (n, f) =>
      `Check in at least once every ${f.number(n[0] ?? 365)} days. Any other action of yours on the contract (a deposit, a change of the plan) counts too.`,
    defaultSwitch: (n, f) => `Check in at least once every ${f.number(n[0] ?? 365)} days, or choose your own interval.`,
    addGrace: () =>
      'Consider a grace period, so that a late check-in or your guardians can still stop a wrong release.',
    tellGuardians: (n, f) =>
      `Tell your guardians that a release they confirm only starts a ${f.number(n[0] ?? 30)}-day wait, and that any action of yours cancels it.`,
    secondBeneficiary: () =>
      'Consider a second beneficiary, or change the plan if the beneficiary loses access to their wallet.',
    considerGuardians: () => 'Guardians could stop a wrong release, or confirm an early one.',
    enableSwitch: () => 'Turn the switch on or add guardians, so that the estate can be released after your death.',
    fallbackSwitch: () => 'Consider turning the switch on as well, in case the guardians cannot act.',
    claimOwnAddress: () =>
      'Each beneficiary claims their share from their own wallet: tell them where the contract is and keep this page with your papers.',
  },
};

const fr: AdviceCatalog = {
  warnings: {
    'no-dead-mans-switch': (n, f) =>
      n.length === 2
        ? `L’inactivité ne libère jamais le patrimoine : seuls vous, ou ${f.number(n[0]!)} de vos ${f.number(n[1]!)} gardiens, pouvez le libérer.`
        : n.length === 1
          ? 'L’inactivité ne libère jamais le patrimoine : seuls vous, ou vos gardiens, pouvez le libérer.'
          : 'L’inactivité ne libère jamais le patrimoine : vous seul pouvez le libérer. Si vous décédez avant, les fonds restent bloqués.',
    'short-interval': (n, f) =>
      `Si vous ne vous manifestez pas pendant ${f.number(n[0] ?? 0)} jours (voyage, maladie), le patrimoine peut être libéré trop tôt.`,
    'long-interval': (n, f) =>
      `Vos héritiers attendent ${f.number(n[0] ?? 0)} jours après votre dernière manifestation avant de pouvoir réclamer.`,
    'single-beneficiary': () =>
      'Une seule personne reçoit tout : si elle perd l’accès à son portefeuille, personne d’autre ne peut recevoir le patrimoine.',
    'guardian-threshold': (n, f) =>
      `${f.number(n[0] ?? 1)} de vos ${f.number(n[1] ?? 1)} gardiens ensemble peuvent lancer une libération anticipée. Elle n’a lieu que si vous ne donnez aucun signe de vie pendant ${f.number(n[2] ?? 30)} jours : ils ne peuvent jamais passer outre votre volonté.`,
    'single-guardian-release': (n, f) =>
      `N’importe lequel de vos ${f.number(n[0] ?? 2)} gardiens peut lancer une libération anticipée ; vous avez alors ${f.number(n[1] ?? 30)} jours pour l’annuler.`,
    'guardian-threshold-one': (n, f) =>
      `N’importe lequel de vos ${f.number(n[0] ?? 2)} gardiens peut lancer une libération anticipée ; vous avez alors ${f.number(n[1] ?? 30)} jours pour l’annuler.`,
    'unanimous-guardians': (n, f) =>
      `Les ${f.number(n[0] ?? 2)} gardiens doivent tous être d’accord : si l’un perd sa clé, les gardiens ne peuvent plus agir.`,
    'guardian-threshold-all': () =>
      'Tous les gardiens doivent être d’accord : si l’un perd sa clé, les gardiens ne peuvent plus agir.',
    'guardian-is-beneficiary': (n, f) =>
      `${f.number(n[0] ?? 1)} de vos gardiens reçoivent aussi une part et pourraient voter une libération à leur profit.`,
    'beneficiary-is-contract': (n, f) =>
      `Le bénéficiaire ${f.number(n[0] ?? 1)} ne peut pas réclamer : l’adresse est un contrat de jeton ou une adresse système.`,
    'nft-recipient-not-beneficiary': (n, f) =>
      `Le NFT ${f.number(n[0] ?? 1)} va à une adresse qui n’a aucune part du reste du patrimoine.`,
    'default-dead-mans-switch': (n, f) =>
      `Aucune minuterie n’a été choisie, celle par défaut s’applique : manifestez-vous au moins tous les ${f.number(n[0] ?? 365)} jours.`,
    'code-size': () => 'Le contrat est trop volumineux pour être déployé sur Ethereum.',
    'token-behaviour': () =>
      'Les jetons sont partagés d’après ce que le contrat détient réellement : des jetons inhabituels (à rebasage ou à frais) peuvent verser un peu plus ou un peu moins que la part exacte.',
    'no-grace-period': () =>
      'Il n’y a pas de délai de grâce : une manifestation manquée libère le patrimoine aussitôt.',
  },
  suggestions: {
    checkIn: (n, f) =>
      `Manifestez-vous au moins une fois tous les ${f.number(n[0] ?? 365)} jours. Toute autre action de votre part sur le contrat (un dépôt, une modification du plan) compte aussi.`,
    defaultSwitch: (n, f) =>
      `Manifestez-vous au moins une fois tous les ${f.number(n[0] ?? 365)} jours, ou choisissez votre propre intervalle.`,
    addGrace: () =>
      'Pensez à un délai de grâce : une manifestation tardive ou vos gardiens pourront encore arrêter une libération injustifiée.',
    tellGuardians: (n, f) =>
      `Dites à vos gardiens qu’une libération qu’ils confirment ne fait qu’ouvrir un délai de ${f.number(n[0] ?? 30)} jours, et que toute action de votre part l’annule.`,
    secondBeneficiary: () =>
      'Pensez à un second bénéficiaire, ou modifiez le plan si le bénéficiaire perd l’accès à son portefeuille.',
    considerGuardians: () =>
      'Des gardiens pourraient arrêter une libération injustifiée, ou confirmer une libération anticipée.',
    enableSwitch: () =>
      'Activez la minuterie ou ajoutez des gardiens, pour que le patrimoine puisse être libéré après votre décès.',
    fallbackSwitch: () => 'Pensez à activer aussi la minuterie, au cas où les gardiens ne pourraient pas agir.',
    claimOwnAddress: () =>
      'Chaque bénéficiaire réclame sa part depuis son propre portefeuille : dites-leur où se trouve le contrat et gardez cette page avec vos papiers.',
  },
};

const es: AdviceCatalog = {
  warnings: {
    'no-dead-mans-switch': (n, f) =>
      n.length === 2
        ? `La inactividad nunca libera el patrimonio: solo usted, o ${f.number(n[0]!)} de sus ${f.number(n[1]!)} guardianes, pueden liberarlo.`
        : n.length === 1
          ? 'La inactividad nunca libera el patrimonio: solo usted, o sus guardianes, pueden liberarlo.'
          : 'La inactividad nunca libera el patrimonio: solo usted puede liberarlo. Si fallece antes, los fondos quedan bloqueados.',
    'short-interval': (n, f) =>
      `Si no da señales de vida durante ${f.number(n[0] ?? 0)} días (un viaje, una enfermedad), el patrimonio puede liberarse antes de tiempo.`,
    'long-interval': (n, f) =>
      `Sus herederos esperan ${f.number(n[0] ?? 0)} días desde su última señal de vida antes de poder reclamar.`,
    'single-beneficiary': () =>
      'Una sola persona lo recibe todo: si pierde el acceso a su monedero, nadie más puede recibir el patrimonio.',
    'guardian-threshold': (n, f) =>
      `${f.number(n[0] ?? 1)} de sus ${f.number(n[1] ?? 1)} guardianes juntos pueden iniciar una liberación anticipada. Solo ocurre si usted no da señales de vida durante ${f.number(n[2] ?? 30)} días: nunca pueden imponerse a usted.`,
    'single-guardian-release': (n, f) =>
      `Cualquiera de sus ${f.number(n[0] ?? 2)} guardianes puede iniciar una liberación anticipada; usted tiene entonces ${f.number(n[1] ?? 30)} días para cancelarla.`,
    'guardian-threshold-one': (n, f) =>
      `Cualquiera de sus ${f.number(n[0] ?? 2)} guardianes puede iniciar una liberación anticipada; usted tiene entonces ${f.number(n[1] ?? 30)} días para cancelarla.`,
    'unanimous-guardians': (n, f) =>
      `Los ${f.number(n[0] ?? 2)} guardianes deben estar de acuerdo: si uno pierde su clave, los guardianes ya no pueden actuar.`,
    'guardian-threshold-all': () =>
      'Todos los guardianes deben estar de acuerdo: si uno pierde su clave, los guardianes ya no pueden actuar.',
    'guardian-is-beneficiary': (n, f) =>
      `${f.number(n[0] ?? 1)} de sus guardianes también reciben una parte y podrían votar liberar el patrimonio a su favor.`,
    'beneficiary-is-contract': (n, f) =>
      `El beneficiario ${f.number(n[0] ?? 1)} no puede reclamar: la dirección es un contrato de token o una dirección del sistema.`,
    'nft-recipient-not-beneficiary': (n, f) =>
      `El NFT ${f.number(n[0] ?? 1)} va a una dirección que no tiene parte del resto del patrimonio.`,
    'default-dead-mans-switch': (n, f) =>
      `No se eligió un interruptor, así que se aplica el predeterminado: dé señales de vida al menos cada ${f.number(n[0] ?? 365)} días.`,
    'code-size': () => 'El contrato es demasiado grande para desplegarse en Ethereum.',
    'token-behaviour': () =>
      'Los tokens se reparten según lo que el contrato tiene realmente: tokens poco comunes (con rebase o comisiones) pueden pagar algo más o algo menos que la parte exacta.',
    'no-grace-period': () => 'No hay periodo de gracia: una señal de vida que falte libera el patrimonio de inmediato.',
  },
  suggestions: {
    checkIn: (n, f) =>
      `Dé señales de vida al menos una vez cada ${f.number(n[0] ?? 365)} días. Cualquier otra acción suya en el contrato (un depósito, un cambio del plan) también cuenta.`,
    defaultSwitch: (n, f) =>
      `Dé señales de vida al menos una vez cada ${f.number(n[0] ?? 365)} días, o elija su propio intervalo.`,
    addGrace: () =>
      'Considere un periodo de gracia: una señal de vida tardía o sus guardianes aún podrán detener una liberación indebida.',
    tellGuardians: (n, f) =>
      `Explique a sus guardianes que una liberación que confirmen solo inicia una espera de ${f.number(n[0] ?? 30)} días, y que cualquier acción suya la cancela.`,
    secondBeneficiary: () =>
      'Considere un segundo beneficiario, o cambie el plan si el beneficiario pierde el acceso a su monedero.',
    considerGuardians: () => 'Unos guardianes podrían detener una liberación indebida o confirmar una anticipada.',
    enableSwitch: () =>
      'Active el interruptor o añada guardianes, para que el patrimonio pueda liberarse tras su fallecimiento.',
    fallbackSwitch: () => 'Considere activar también el interruptor, por si los guardianes no pudieran actuar.',
    claimOwnAddress: () =>
      'Cada beneficiario reclama su parte desde su propio monedero: dígales dónde está el contrato y guarde esta página con sus documentos.',
  },
};

const ar: AdviceCatalog = {
  warnings: {
    'no-dead-mans-switch': (n, f) =>
      n.length === 2
        ? `الخمول لا يحرّر التركة أبدًا: لا يحرّرها إلا أنت، أو ${f.number(n[0]!)} من أوصيائك الـ${f.number(n[1]!)}.`
        : n.length === 1
          ? 'الخمول لا يحرّر التركة أبدًا: لا يحرّرها إلا أنت أو أوصياؤك.'
          : 'الخمول لا يحرّر التركة أبدًا: لا يحرّرها إلا أنت. إن توفيت قبل ذلك بقيت الأموال مقفلة.',
    'short-interval': (n, f) =>
      `إن غبت عن تأكيد الحضور ${f.number(n[0] ?? 0)} يومًا (سفر أو مرض) فقد تُحرَّر التركة قبل الأوان.`,
    'long-interval': (n, f) => `ينتظر ورثتك ${f.number(n[0] ?? 0)} يومًا بعد آخر تأكيد حضور لك قبل أن يطالبوا.`,
    'single-beneficiary': () => 'شخص واحد يحصل على كل شيء: إن فقد الوصول إلى محفظته فلن يستطيع أحد غيره استلام التركة.',
    'guardian-threshold': (n, f) =>
      `يستطيع ${f.number(n[0] ?? 1)} من أوصيائك الـ${f.number(n[1] ?? 1)} معًا بدء تحرير مبكر، ولا يتم إلا إن لم تُبدِ أي علامة حياة مدة ${f.number(n[2] ?? 30)} يومًا، فلا يستطيعون تجاوزك أبدًا.`,
    'single-guardian-release': (n, f) =>
      `يستطيع أي واحد من أوصيائك الـ${f.number(n[0] ?? 2)} بدء تحرير مبكر، ولديك حينها ${f.number(n[1] ?? 30)} يومًا لإلغائه.`,
    'guardian-threshold-one': (n, f) =>
      `يستطيع أي واحد من أوصيائك الـ${f.number(n[0] ?? 2)} بدء تحرير مبكر، ولديك حينها ${f.number(n[1] ?? 30)} يومًا لإلغائه.`,
    'unanimous-guardians': (n, f) =>
      `يجب أن يتفق الأوصياء الـ${f.number(n[0] ?? 2)} جميعًا: إن فقد أحدهم مفتاحه لم يعد بوسع الأوصياء التصرف.`,
    'guardian-threshold-all': () => 'يجب أن يتفق الأوصياء جميعًا: إن فقد أحدهم مفتاحه لم يعد بوسع الأوصياء التصرف.',
    'guardian-is-beneficiary': (n, f) =>
      `${f.number(n[0] ?? 1)} من أوصيائك يحصلون أيضًا على حصة وقد يصوّتون لتحرير التركة لأنفسهم.`,
    'beneficiary-is-contract': (n, f) =>
      `لا يستطيع المستفيد ${f.number(n[0] ?? 1)} المطالبة: العنوان عقد رمز أو عنوان نظام.`,
    'nft-recipient-not-beneficiary': (n, f) =>
      `الرمز غير القابل للاستبدال ${f.number(n[0] ?? 1)} يذهب إلى عنوان لا حصة له في بقية التركة.`,
    'default-dead-mans-switch': (n, f) =>
      `لم يُختر مؤقّت، فطُبّق المؤقّت الافتراضي: أكّد حضورك مرة كل ${f.number(n[0] ?? 365)} يومًا على الأقل.`,
    'code-size': () => 'العقد أكبر من أن يُنشر على إيثريوم.',
    'token-behaviour': () =>
      'تُقسم الرموز بحسب ما يملكه العقد فعلًا: قد تدفع الرموز غير المعتادة (ذات إعادة التوازن أو الرسوم) أكثر أو أقل قليلًا من الحصة الدقيقة.',
    'no-grace-period': () => 'لا توجد مهلة سماح: أي تأكيد حضور فائت يحرّر التركة فورًا.',
  },
  suggestions: {
    checkIn: (n, f) =>
      `أكّد حضورك مرة كل ${f.number(n[0] ?? 365)} يومًا على الأقل. وكل إجراء آخر منك على العقد (إيداع أو تعديل للخطة) يُحتسب أيضًا.`,
    defaultSwitch: (n, f) => `أكّد حضورك مرة كل ${f.number(n[0] ?? 365)} يومًا على الأقل، أو اختر مدة بنفسك.`,
    addGrace: () => 'فكّر في مهلة سماح، كي يتمكن تأكيد حضور متأخر أو أوصياؤك من إيقاف تحرير خاطئ.',
    tellGuardians: (n, f) =>
      `أخبر أوصياءك أن التحرير الذي يؤكدونه لا يبدأ إلا مهلة ${f.number(n[0] ?? 30)} يومًا، وأن أي إجراء منك يلغيه.`,
    secondBeneficiary: () => 'فكّر في مستفيد ثانٍ، أو عدّل الخطة إن فقد المستفيد الوصول إلى محفظته.',
    considerGuardians: () => 'يمكن للأوصياء إيقاف تحرير خاطئ أو تأكيد تحرير مبكر.',
    enableSwitch: () => 'فعّل المؤقّت أو أضف أوصياء، كي يمكن تحرير التركة بعد وفاتك.',
    fallbackSwitch: () => 'فكّر في تفعيل المؤقّت أيضًا، تحسّبًا لعجز الأوصياء عن التصرف.',
    claimOwnAddress: () => 'يطالب كل مستفيد بحصته من محفظته الخاصة: أخبرهم أين العقد واحفظ هذه الصفحة مع أوراقك.',
  },
};

export const ADVICE_WORDS: Record<Locale, AdviceCatalog> = { en, ar, es, fr };
