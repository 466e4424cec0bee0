/**
 * The small server-rendered pages mail links open: the owner's check-in page, the heirs' guide and the account pages
 * (confirm an address, choose a new password, confirm an address change), in English, Arabic (right to left),
 * Spanish and French. Plain HTML, no external resource, every value escaped. The check-in page has no script; the
 * heirs' guide and the account pages carry forms run by their own same-origin script (src/http/heir-client,
 * src/http/account-client), which gets its words as JSON data. The wording is ours; values (a plan's label) are escaped where they are put in.
 */
import { rankedLanguages } from '../core/messages/index.js';
import { escapeHtml } from './templates/index.js';

import { ACCOUNT_TEXTS, type AccountPageKind } from './account-texts.js';
import { HEIR_TEXTS, type HeirTopic } from './heir-texts.js';
import { PAGE_LOCALES, type PageLocale } from './page-locales.js';

export { ACCOUNT_PAGE_KINDS, ACCOUNT_TEXTS, type AccountPageKind, type AccountScriptTexts } from './account-texts.js';
export { HEIR_TEXTS, type HeirScriptTexts, type HeirTopic } from './heir-texts.js';
export { PAGE_LOCALES, type PageLocale } from './page-locales.js';

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
  /** The plan is followed on its contract: only a check-in there moves the deadline that counts. */
  watched: (label: string) => string;
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
    watched: (l) =>
      `Thank you: you are recorded as well. But your plan “${l}” follows its contract on chain, where only a check-in on the contract itself, from the owner’s address, moves the deadline: this link does not. Check in on the contract before its deadline.`,
  },
  ar: {
    askTitle: 'هل أنت بخير؟',
    ask: (l) =>
      `أكّد أنك بخير لتسجيل حضورك في خطتك «${l}». يُلغى أي بلاغ عن وفاتك ينتظر التأكيد، ويبدأ موعدك التالي من الآن.`,
    button: 'أنا بخير: سجّل حضوري',
    doneTitle: 'تم تسجيل الحضور',
    done: (l) => `شكرًا لك. تم تسجيل حضورك في «${l}».`,
    late: 'كانت فترة الانتظار قد انتهت وفُتحت الحصص. سجّل الدخول لسحبها إن كان ذلك خطأ.',
    watched: (l) =>
      `شكرًا لك، سُجّل أنك بخير. لكن خطتك «${l}» تتبع عقدها على السلسلة، ولا يؤجّل موعدها إلا تسجيل الحضور في العقد نفسه من عنوان المالك، لا هذا الرابط. سجّل حضورك في العقد قبل موعده.`,
  },
  es: {
    askTitle: '¿Se encuentra bien?',
    ask: (l) =>
      `Confirme que se encuentra bien para registrar su presencia en su plan «${l}». Se cancela cualquier aviso de su fallecimiento pendiente de confirmar, y su próximo plazo empieza a contar desde ahora.`,
    button: 'Estoy bien: registrar mi presencia',
    doneTitle: 'Presencia registrada',
    done: (l) => `Gracias. Su presencia en «${l}» ha quedado registrada.`,
    late: 'El periodo de espera ya había terminado y las partes están abiertas. Inicie sesión para retirarlas si se trata de un error.',
    watched: (l) =>
      `Gracias: consta que se encuentra bien. Pero su plan «${l}» sigue su contrato en la cadena, donde solo un registro de presencia en el propio contrato, desde la dirección del titular, aplaza el plazo: este enlace no lo hace. Registre su presencia en el contrato antes de su plazo.`,
  },
  fr: {
    askTitle: 'Allez-vous bien\u00a0?',
    ask: (l) =>
      `Confirmez que vous allez bien pour signaler votre présence dans votre plan «\u00a0${l}\u00a0». Un signalement de votre décès en attente de confirmation est annulé, et votre prochaine échéance part de maintenant.`,
    button: 'Je vais bien\u00a0: signaler ma présence',
    doneTitle: 'Présence enregistrée',
    done: (l) => `Merci. Votre présence pour «\u00a0${l}\u00a0» est enregistrée.`,
    late: "Le délai d'attente était déjà écoulé et les parts sont ouvertes. Connectez-vous pour les retirer s'il s'agit d'une erreur.",
    watched: (l) =>
      `Merci\u00a0: votre présence est notée. Mais votre plan «\u00a0${l}\u00a0» suit son contrat sur la chaîne, où seule une présence signalée au contrat lui-même, depuis l’adresse du titulaire, repousse l’échéance\u00a0: ce lien ne le fait pas. Signalez votre présence au contrat avant son échéance.`,
  },
};

interface UnsubscribeTexts {
  askTitle: string;
  ask: string;
  button: string;
  doneTitle: string;
  done: string;
}

/** The unsubscribe page's words, in the language of the user the message was sent to. */
export const UNSUBSCRIBE_TEXTS: Record<PageLocale, UnsubscribeTexts> = {
  en: {
    askTitle: 'Stop these messages?',
    ask: 'You will no longer receive this kind of message. Messages you need to use or protect your account are still sent.',
    button: 'Unsubscribe',
    doneTitle: 'You are unsubscribed',
    done: 'You will no longer receive this kind of message.',
  },
  ar: {
    askTitle: 'إيقاف هذه الرسائل؟',
    ask: 'لن تصلك بعد الآن رسائل من هذا النوع. أما الرسائل التي تحتاجها لاستخدام حسابك أو حمايته فستظل تُرسل إليك.',
    button: 'إلغاء الاشتراك',
    doneTitle: 'تم إلغاء اشتراكك',
    done: 'لن تصلك بعد الآن رسائل من هذا النوع.',
  },
  es: {
    askTitle: '¿Dejar de recibir estos mensajes?',
    ask: 'Ya no recibirá este tipo de mensajes. Los mensajes que necesita para usar o proteger su cuenta se seguirán enviando.',
    button: 'Darse de baja',
    doneTitle: 'Se ha dado de baja',
    done: 'Ya no recibirá este tipo de mensajes.',
  },
  fr: {
    askTitle: 'Ne plus recevoir ces messages\u00a0?',
    ask: 'Vous ne recevrez plus ce type de message. Les messages nécessaires pour utiliser ou protéger votre compte vous sont toujours envoyés.',
    button: 'Se désabonner',
    doneTitle: 'Vous êtes désabonné',
    done: 'Vous ne recevrez plus ce type de message.',
  },
};

interface LinkErrorTexts {
  title: string;
  /** A check-in link that is malformed, or one already used, expired or for a plan since unlinked. */
  checkIn: { invalid: string; gone: string };
  unsubscribe: { invalid: string };
}

/** What a browser opening a mailed link that cannot be used is shown (a client asking for JSON gets the envelope). */
export const LINK_ERROR_TEXTS: Record<PageLocale, LinkErrorTexts> = {
  en: {
    title: 'This link cannot be used',
    checkIn: {
      invalid: 'This check-in link is not valid. Open the latest message we sent you, or sign in to check in.',
      gone: 'This check-in link has already been used or has expired. Sign in to check in.',
    },
    unsubscribe: { invalid: 'This unsubscribe link is not valid. Sign in to choose which messages you receive.' },
  },
  ar: {
    title: 'لا يمكن استخدام هذا الرابط',
    checkIn: {
      invalid: 'رابط تسجيل الحضور هذا غير صالح. افتح أحدث رسالة أرسلناها إليك، أو سجّل الدخول لتسجيل حضورك.',
      gone: 'سبق استخدام رابط تسجيل الحضور هذا أو انتهت صلاحيته. سجّل الدخول لتسجيل حضورك.',
    },
    unsubscribe: { invalid: 'رابط إلغاء الاشتراك هذا غير صالح. سجّل الدخول لتختار الرسائل التي تصلك.' },
  },
  es: {
    title: 'Este enlace no se puede usar',
    checkIn: {
      invalid:
        'Este enlace para registrar su presencia no es válido. Abra el último mensaje que le enviamos, o inicie sesión para registrarla.',
      gone: 'Este enlace para registrar su presencia ya se usó o ha caducado. Inicie sesión para registrarla.',
    },
    unsubscribe: {
      invalid: 'Este enlace para darse de baja no es válido. Inicie sesión para elegir qué mensajes recibe.',
    },
  },
  fr: {
    title: 'Ce lien ne peut pas être utilisé',
    checkIn: {
      invalid:
        'Ce lien pour signaler votre présence n’est pas valide. Ouvrez le dernier message que nous vous avons envoyé, ou connectez-vous pour la signaler.',
      gone: 'Ce lien pour signaler votre présence a déjà servi ou a expiré. Connectez-vous pour la signaler.',
    },
    unsubscribe: {
      invalid: 'Ce lien de désabonnement n’est pas valide. Connectez-vous pour choisir les messages que vous recevez.',
    },
  },
};

/** The page's own files: its script and stylesheet, at versioned same-origin URLs. */
export interface HeirPageAssets {
  script: string;
  style: string;
}

/** JSON safe inside a <script type="application/json"> element: nothing in it can end the element early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const field = (id: string, label: string, input: string, hint?: string): string =>
  `<p><label for="${id}">${escapeHtml(label)}</label><br>${input}` +
  (hint ? `<br><small id="${id}-hint">${escapeHtml(hint)}</small>` : '') +
  '</p>';

/**
 * The heirs' guide page: what the message meant, the steps, and the forms that take the heir through them (shown by
 * the page's script, which talks to the JSON API of the same origin). The forms are hidden until the script runs and
 * post nowhere (the page's policy allows no form action), so nothing typed can ever end up in a web address.
 */
export function heirPage(locale: PageLocale, topic: HeirTopic | undefined, assets: HeirPageAssets): string {
  const t = HEIR_TEXTS[locale];
  const f = t.form;
  const steps = t.steps.map((s) => `<li>${escapeHtml(s)}</li>`).join('');
  const button = (text: string, extra = '') => `<button type="submit"${extra}>${escapeHtml(text)}</button>`;
  const status = (id: string) => `<p id="${id}" class="message" role="status" aria-live="polite"></p>`;
  const account =
    '<section id="account" hidden>' +
    `<h2>${escapeHtml(f.registerTitle)}</h2>` +
    '<form id="register-form" method="post" novalidate>' +
    field('register-name', f.name, '<input id="register-name" name="name" autocomplete="name" maxlength="100">') +
    field(
      'register-email',
      f.email,
      '<input id="register-email" name="email" type="email" autocomplete="email" maxlength="254" required>',
    ) +
    field(
      'register-password',
      f.password,
      '<input id="register-password" name="password" type="password" autocomplete="new-password" minlength="10" maxlength="256" required aria-describedby="register-password-hint">',
      f.passwordHint,
    ) +
    button(f.registerButton) +
    status('register-message') +
    '</form>' +
    `<h2>${escapeHtml(f.loginTitle)}</h2>` +
    '<form id="login-form" method="post" novalidate>' +
    field(
      'login-email',
      f.email,
      '<input id="login-email" name="email" type="email" autocomplete="email" maxlength="254" required>',
    ) +
    field(
      'login-password',
      f.loginPassword,
      '<input id="login-password" name="password" type="password" autocomplete="current-password" maxlength="256" required>',
    ) +
    button(f.loginButton) +
    `<p><button type="button" id="forgot-button">${escapeHtml(f.forgotButton)}</button></p>` +
    status('login-message') +
    '</form></section>';
  const signedIn =
    '<section id="signed-in" hidden>' +
    `<p><span id="who"></span> <button type="button" id="sign-out">${escapeHtml(f.signOut)}</button></p>` +
    `<div id="verify" hidden><p id="verify-text"></p><p><button type="button" id="check-again">${escapeHtml(f.checkAgain)}</button></p>` +
    status('verify-message') +
    '</div>' +
    `<h2>${escapeHtml(f.claimTitle)}</h2>` +
    '<form id="claim-form" method="post" novalidate>' +
    field(
      'claim-code',
      f.code,
      '<input id="claim-code" name="code" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="200" dir="ltr" required aria-describedby="claim-code-hint">',
      f.codeHint,
    ) +
    button(f.claimButton) +
    status('claim-message') +
    '</form>' +
    `<h2>${escapeHtml(f.sharesTitle)}</h2>` +
    `<p><button type="button" id="refresh">${escapeHtml(f.refresh)}</button></p>` +
    status('shares-message') +
    '<ul id="shares"></ul></section>';
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  return (
    `<!DOCTYPE html>\n<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="referrer" content="no-referrer">' +
    `<title>${escapeHtml(t.title)}</title><link rel="stylesheet" href="${escapeHtml(assets.style)}"></head>` +
    `<body><main><h1>${escapeHtml(t.title)}</h1>` +
    `<p>${escapeHtml(t.about[topic ?? 'none'])}</p><h2>${escapeHtml(t.stepsTitle)}</h2><ol>${steps}</ol>` +
    `<noscript><p><strong>${escapeHtml(t.noscript)}</strong></p></noscript>` +
    account +
    signedIn +
    `<p><strong>${escapeHtml(t.privacy)}</strong></p></main>` +
    `<script type="application/json" id="heir-texts">${scriptJson(t.script)}</script>` +
    `<script src="${escapeHtml(assets.script)}"></script></body></html>\n`
  );
}

/**
 * One of the account pages a mailed link opens: what the link is for and a button (for a new password, a form) that
 * the page's script runs against the JSON API of the same origin. The HTML is the same for everyone and never holds
 * the link's token: the script reads it from the page's own address when the button is pressed, so opening the page
 * (as mail scanners do) changes nothing.
 */
export function accountPage(locale: PageLocale, kind: AccountPageKind, assets: HeirPageAssets): string {
  const t = ACCOUNT_TEXTS[locale];
  const p = t.pages[kind];
  const fields =
    kind === 'reset'
      ? field(
          'new-password',
          t.newPassword,
          '<input id="new-password" name="newPassword" type="password" autocomplete="new-password" minlength="10" maxlength="256" required aria-describedby="new-password-hint">',
          t.newPasswordHint,
        ) +
        field(
          'repeat-password',
          t.repeatPassword,
          '<input id="repeat-password" name="repeatPassword" type="password" autocomplete="new-password" maxlength="256" required>',
        )
      : '';
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  return (
    `<!DOCTYPE html>\n<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="referrer" content="no-referrer">' +
    `<title>${escapeHtml(p.title)}</title><link rel="stylesheet" href="${escapeHtml(assets.style)}"></head>` +
    `<body><main id="account-page" data-page="${kind}"><h1>${escapeHtml(p.title)}</h1>` +
    `<p>${escapeHtml(p.intro)}</p>` +
    `<noscript><p><strong>${escapeHtml(t.noscript)}</strong></p></noscript>` +
    '<form id="account-form" method="post" novalidate hidden>' +
    fields +
    `<button type="submit">${escapeHtml(p.button)}</button>` +
    '</form>' +
    '<p id="account-message" class="message" role="status" aria-live="polite"></p></main>' +
    `<script type="application/json" id="account-texts">${scriptJson(t.script)}</script>` +
    `<script src="${escapeHtml(assets.script)}"></script></body></html>\n`
  );
}
