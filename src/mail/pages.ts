/**
 * The small server-rendered pages mail links open: the owner's check-in page and the heirs' guide, in English,
 * Arabic (right to left), Spanish and French. Plain HTML like the messages themselves: no script, no external
 * resource, every value escaped. The wording is ours; values (a plan's label) are escaped where they are put in.
 */
import { rankedLanguages } from '../core/messages/index.js';
import { escapeHtml } from './templates/index.js';

export const PAGE_LOCALES = ['en', 'ar', 'es', 'fr'] as const;
export type PageLocale = (typeof PAGE_LOCALES)[number];

const isPageLocale = (v: unknown): v is PageLocale => (PAGE_LOCALES as readonly unknown[]).includes(v);

/**
 * The page's language: `preferred` when it is one of ours (a profile's locale, a link's `lang`), else the first of
 * ours the client's Accept-Language ranks highest (weights honoured, regions ignored), else English.
 */
export function pageLocale(preferred: unknown, acceptLanguage: string | undefined): PageLocale {
  if (isPageLocale(preferred)) return preferred;
  return rankedLanguages(acceptLanguage).find(isPageLocale) ?? 'en';
}

/** A whole page: `body` is HTML made here (values escaped by the caller of each text). */
export function page(locale: PageLocale, title: string, body: string): string {
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  return (
    `<!DOCTYPE html>\n<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:sans-serif;line-height:1.5;max-width:40em;margin:2em auto;padding:0 1em">` +
    `<h1>${escapeHtml(title)}</h1>${body}</body></html>\n`
  );
}

interface CheckInTexts {
  askTitle: string;
  ask: (label: string) => string;
  button: string;
  doneTitle: string;
  done: (label: string) => string;
  late: string;
}

/** The check-in page's words; `label` arrives escaped. */
export const CHECK_IN_TEXTS: Record<PageLocale, CheckInTexts> = {
  en: {
    askTitle: 'Are you well?',
    ask: (l) =>
      `Confirm that you are well to check in for your plan “${l}”. A report of your death that is waiting to be confirmed is cancelled, and your next deadline starts from now.`,
    button: 'I am well: check in',
    doneTitle: 'Checked in',
    done: (l) => `Thank you. Your check-in for “${l}” is recorded.`,
    late: 'The waiting period had already ended and the shares are open. Sign in to withdraw them if this is a mistake.',
  },
  ar: {
    askTitle: 'هل أنت بخير؟',
    ask: (l) =>
      `أكّد أنك بخير لتسجيل حضورك في خطتك «${l}». يُلغى أي بلاغ عن وفاتك ينتظر التأكيد، ويبدأ موعدك التالي من الآن.`,
    button: 'أنا بخير: سجّل حضوري',
    doneTitle: 'تم تسجيل الحضور',
    done: (l) => `شكرًا لك. تم تسجيل حضورك في «${l}».`,
    late: 'كانت فترة الانتظار قد انتهت وفُتحت الحصص. سجّل الدخول لسحبها إن كان ذلك خطأ.',
  },
  es: {
    askTitle: '¿Se encuentra bien?',
    ask: (l) =>
      `Confirme que se encuentra bien para registrar su presencia en su plan «${l}». Se cancela cualquier aviso de su fallecimiento pendiente de confirmar, y su próximo plazo empieza a contar desde ahora.`,
    button: 'Estoy bien: registrar mi presencia',
    doneTitle: 'Presencia registrada',
    done: (l) => `Gracias. Su presencia en «${l}» ha quedado registrada.`,
    late: 'El periodo de espera ya había terminado y las partes están abiertas. Inicie sesión para retirarlas si se trata de un error.',
  },
  fr: {
    askTitle: 'Allez-vous bien ?',
    ask: (l) =>
      `Confirmez que vous allez bien pour signaler votre présence dans votre plan « ${l} ». Un signalement de votre décès en attente de confirmation est annulé, et votre prochaine échéance part de maintenant.`,
    button: 'Je vais bien : signaler ma présence',
    doneTitle: 'Présence enregistrée',
    done: (l) => `Merci. Votre présence pour « ${l} » est enregistrée.`,
    late: "Le délai d'attente était déjà écoulé et les parts sont ouvertes. Connectez-vous pour les retirer s'il s'agit d'une erreur.",
  },
};

/** What an heir's message was about. */
export type HeirTopic = 'invitation' | 'new-code' | 'share-opened';

interface HeirTexts {
  title: string;
  about: Record<HeirTopic | 'none', string>;
  stepsTitle: string;
  steps: [string, string, string, string];
  privacy: string;
}

/** The heirs' guide: what they were sent and how to claim. Nothing in it depends on a plan or a person. */
export const HEIR_TEXTS: Record<PageLocale, HeirTexts> = {
  en: {
    title: 'You were named as an heir',
    about: {
      invitation:
        'You received a message saying that someone named you as an heir in their inheritance plan. It carries your personal claim code (it starts with “shc_”). Keep that message: nothing is asked of you now.',
      'new-code':
        'You received a message with a new personal claim code for a share that was already open for you. The code you had before no longer works: claim the share again with the new one (the steps are below) and you can read it again.',
      'share-opened':
        'You received a message saying that a share of a plan has opened for you. You can claim it with the personal code you received earlier, whenever you feel ready.',
      none: 'Someone named you as an heir in their inheritance plan. You received your personal claim code (it starts with “shc_”) by email.',
    },
    stepsTitle: 'How to claim your share',
    steps: [
      'Create an account with the very address the message was sent to (POST /api/auth/register), or sign in if you have one (POST /api/auth/login). A share sent to you can only be claimed with that address.',
      'Confirm the address with the link we email you when you create the account.',
      'Signed in, claim the share with your code: POST /api/v1/svcloom/shared/claim with {"code": "shc_..."}, or ask an assistant connected to this service to use the claim_memoir_share tool.',
      'Your shares are listed at GET /api/v1/svcloom/shared. A share can be read once it has opened.',
    ],
    privacy:
      'Never type your code into a web address or share it with anyone. This page knows nothing about you or the plan: it only explains the steps.',
  },
  ar: {
    title: 'لقد سُمّيت وريثًا',
    about: {
      invitation:
        'وصلتك رسالة تقول إن شخصًا سمّاك وريثًا في خطة ميراثه. تحمل الرسالة رمز المطالبة الخاص بك (يبدأ بـ «shc_»). احتفظ بها: لا يُطلب منك شيء الآن.',
      'new-code':
        'وصلتك رسالة تحمل رمز مطالبة خاصًا جديدًا لحصة كانت مفتوحة لك. الرمز الذي كان لديك لم يعد يعمل: طالب بالحصة من جديد بالرمز الجديد (الخطوات أدناه) وستتمكن من الاطلاع عليها مرة أخرى.',
      'share-opened':
        'وصلتك رسالة تقول إن حصة من خطة قد فُتحت لك. يمكنك المطالبة بها بالرمز الخاص الذي وصلك من قبل، متى شعرت أنك مستعد.',
      none: 'سمّاك شخص وريثًا في خطة ميراثه. وصلك رمز المطالبة الخاص بك (يبدأ بـ «shc_») بالبريد الإلكتروني.',
    },
    stepsTitle: 'كيف تطالب بحصتك',
    steps: [
      'أنشئ حسابًا بالعنوان نفسه الذي أُرسلت إليه الرسالة (POST /api/auth/register)، أو سجّل الدخول إن كان لديك حساب (POST /api/auth/login). لا يمكن المطالبة بالحصة المرسلة إليك إلا بذلك العنوان.',
      'أكّد العنوان بالرابط الذي نرسله إليك عند إنشاء الحساب.',
      'بعد تسجيل الدخول، طالب بالحصة برمزك: POST /api/v1/svcloom/shared/claim مع {"code": "shc_..."}، أو اطلب من مساعد متصل بهذه الخدمة استخدام أداة claim_memoir_share.',
      'تظهر حصصك في GET /api/v1/svcloom/shared. يمكن قراءة الحصة بعد أن تُفتح.',
    ],
    privacy:
      'لا تكتب رمزك في عنوان صفحة ولا تشاركه مع أحد. هذه الصفحة لا تعرف شيئًا عنك ولا عن الخطة: إنها تشرح الخطوات فقط.',
  },
  es: {
    title: 'Ha sido nombrado heredero',
    about: {
      invitation:
        'Ha recibido un mensaje que dice que alguien le ha nombrado heredero en su plan de herencia. Contiene su código personal de reclamación (empieza por «shc_»). Guarde ese mensaje: ahora no se le pide nada.',
      'new-code':
        'Ha recibido un mensaje con un nuevo código personal de reclamación para una parte que ya estaba abierta para usted. El código que tenía ya no funciona: reclame la parte de nuevo con el nuevo código (los pasos están abajo) y podrá volver a consultarla.',
      'share-opened':
        'Ha recibido un mensaje que dice que se ha abierto para usted una parte de un plan. Puede reclamarla con el código personal que recibió antes, cuando se sienta preparado.',
      none: 'Alguien le ha nombrado heredero en su plan de herencia. Recibió su código personal de reclamación (empieza por «shc_») por correo electrónico.',
    },
    stepsTitle: 'Cómo reclamar su parte',
    steps: [
      'Cree una cuenta con la misma dirección a la que se envió el mensaje (POST /api/auth/register), o inicie sesión si ya tiene una (POST /api/auth/login). Una parte enviada a usted solo se puede reclamar con esa dirección.',
      'Confirme la dirección con el enlace que le enviamos al crear la cuenta.',
      'Con la sesión iniciada, reclame la parte con su código: POST /api/v1/svcloom/shared/claim con {"code": "shc_..."}, o pida a un asistente conectado a este servicio que use la herramienta claim_memoir_share.',
      'Sus partes aparecen en GET /api/v1/svcloom/shared. Una parte se puede leer cuando se ha abierto.',
    ],
    privacy:
      'Nunca escriba su código en una dirección web ni lo comparta con nadie. Esta página no sabe nada de usted ni del plan: solo explica los pasos.',
  },
  fr: {
    title: 'Vous avez été désigné comme héritier',
    about: {
      invitation:
        "Vous avez reçu un message disant qu'une personne vous a désigné comme héritier dans son plan de succession. Il contient votre code personnel de réclamation (il commence par « shc_ »). Gardez ce message : rien ne vous est demandé pour l'instant.",
      'new-code':
        "Vous avez reçu un message contenant un nouveau code personnel de réclamation pour une part qui vous était déjà ouverte. L'ancien code ne fonctionne plus : réclamez de nouveau la part avec le nouveau code (les étapes sont ci-dessous) et vous pourrez la lire à nouveau.",
      'share-opened':
        "Vous avez reçu un message disant qu'une part d'un plan s'est ouverte pour vous. Vous pouvez la réclamer avec le code personnel reçu auparavant, quand vous vous sentirez prêt.",
      none: 'Une personne vous a désigné comme héritier dans son plan de succession. Vous avez reçu votre code personnel de réclamation (il commence par « shc_ ») par e-mail.',
    },
    stepsTitle: 'Comment réclamer votre part',
    steps: [
      "Créez un compte avec l'adresse même à laquelle le message a été envoyé (POST /api/auth/register), ou connectez-vous si vous en avez un (POST /api/auth/login). Une part qui vous est destinée ne peut être réclamée qu'avec cette adresse.",
      "Confirmez l'adresse avec le lien que nous vous envoyons à la création du compte.",
      'Une fois connecté, réclamez la part avec votre code : POST /api/v1/svcloom/shared/claim avec {"code": "shc_..."}, ou demandez à un assistant relié à ce service d\'utiliser l\'outil claim_memoir_share.',
      "Vos parts sont listées à GET /api/v1/svcloom/shared. Une part peut être lue une fois qu'elle s'est ouverte.",
    ],
    privacy:
      "Ne tapez jamais votre code dans une adresse web et ne le partagez avec personne. Cette page ne sait rien de vous ni du plan : elle n'explique que les étapes.",
  },
};

/** The heirs' guide page. */
export function heirPage(locale: PageLocale, topic: HeirTopic | undefined): string {
  const t = HEIR_TEXTS[locale];
  const steps = t.steps.map((s) => `<li>${escapeHtml(s)}</li>`).join('');
  return page(
    locale,
    t.title,
    `<p>${escapeHtml(t.about[topic ?? 'none'])}</p><h2>${escapeHtml(t.stepsTitle)}</h2><ol>${steps}</ol>` +
      `<p><strong>${escapeHtml(t.privacy)}</strong></p>`,
  );
}
