/**
 * The words of the account pages mailed links open (./pages.ts accountPage) and of their script, in the four page
 * languages.
 */
import type { PageLocale } from './page-locales.js';

/** The three account pages mailed links open (src/http/account-page.ts). */
export type AccountPageKind = 'verify' | 'reset' | 'confirm';
export const ACCOUNT_PAGE_KINDS: readonly AccountPageKind[] = ['verify', 'reset', 'confirm'];

/** The words the account pages' script shows as things happen, written as text (never as HTML). */
export interface AccountScriptTexts {
  working: string;
  noToken: string;
  done: Record<AccountPageKind, string>;
  gone: Record<AccountPageKind, string>;
  taken: string;
  emptyPassword: string;
  mismatch: string;
  errors: {
    network: string;
    unknown: string;
    rate: string;
    unavailable: string;
    check: string;
    fields: { newPassword: string };
  };
}

interface AccountTexts {
  pages: Record<AccountPageKind, { title: string; intro: string; button: string }>;
  newPassword: string;
  newPasswordHint: string;
  repeatPassword: string;
  noscript: string;
  script: AccountScriptTexts;
}

/** The account pages' words: nothing in them depends on the account or the link. */
export const ACCOUNT_TEXTS: Record<PageLocale, AccountTexts> = {
  en: {
    pages: {
      verify: {
        title: 'Confirm your email address',
        intro: 'You created an account with this address. Press the button to confirm that it is yours.',
        button: 'Confirm my address',
      },
      reset: {
        title: 'Choose a new password',
        intro: 'You asked to reset your password. Type a new one twice, then press the button.',
        button: 'Set my new password',
      },
      confirm: {
        title: 'Confirm your new email address',
        intro: 'You asked to change the email address of your account to this one. Press the button to confirm it.',
        button: 'Confirm the change',
      },
    },
    newPassword: 'New password',
    newPasswordHint: 'At least 10 characters, and not easy to guess: a few uncommon words make a good password.',
    repeatPassword: 'New password again',
    noscript:
      'This page needs JavaScript, which is turned off in this browser. Turn it on, or ask someone you trust to help you.',
    script: {
      working: 'One moment…',
      noToken: 'This link is not complete. Open the link from the message again, or copy it whole into the browser.',
      done: {
        verify: 'Done: your address is confirmed. You can close this page.',
        reset:
          'Done: your password is changed. For your safety you were signed out everywhere: sign in again with the new password.',
        confirm: 'Done: your account now uses this address. Sign in with it from now on.',
      },
      gone: {
        verify:
          'This link has already been used or has expired (it works once, for 24 hours). If you already confirmed your address, there is nothing more to do. Otherwise, ask for a new password with “Forgot your password?” where you sign in: that link confirms your address too.',
        reset:
          'This link has already been used or has expired (it works once, for 30 minutes). Ask for a new one with “Forgot your password?” where you sign in.',
        confirm:
          'This link has already been used or has expired (it works once, for 24 hours). Sign in and ask for the change again to get a new link.',
      },
      taken: 'This address now belongs to another account, so the change was not made.',
      emptyPassword: 'Type your new password in both fields first.',
      mismatch: 'The two passwords are not the same. Type the new password again in both fields.',
      errors: {
        network: 'The service could not be reached. Check your connection, then try again.',
        unknown: 'Something went wrong. Please try again in a few minutes.',
        rate: 'Too many attempts. Please wait a few minutes, then try again.',
        unavailable: 'The service is busy right now. Please try again in a few minutes.',
        check: 'Please check what you typed:',
        fields: { newPassword: 'New password' },
      },
    },
  },
  ar: {
    pages: {
      verify: {
        title: 'أكّد عنوان بريدك الإلكتروني',
        intro: 'أنشأت حسابًا بهذا العنوان. اضغط الزر لتأكيد أنه عنوانك.',
        button: 'أكّد عنواني',
      },
      reset: {
        title: 'اختر كلمة مرور جديدة',
        intro: 'طلبت إعادة تعيين كلمة المرور. اكتب كلمة مرور جديدة مرتين، ثم اضغط الزر.',
        button: 'احفظ كلمة المرور الجديدة',
      },
      confirm: {
        title: 'أكّد عنوان بريدك الإلكتروني الجديد',
        intro: 'طلبت تغيير عنوان البريد الإلكتروني لحسابك إلى هذا العنوان. اضغط الزر لتأكيد ذلك.',
        button: 'أكّد التغيير',
      },
    },
    newPassword: 'كلمة المرور الجديدة',
    newPasswordHint: '10 أحرف على الأقل، ويصعب تخمينها: بضع كلمات غير شائعة تصنع كلمة مرور جيدة.',
    repeatPassword: 'كلمة المرور الجديدة مرة أخرى',
    noscript: 'تحتاج هذه الصفحة إلى JavaScript، وهو معطّل في هذا المتصفح. فعّله، أو اطلب المساعدة من شخص تثق به.',
    script: {
      working: 'لحظة من فضلك…',
      noToken: 'هذا الرابط غير مكتمل. افتح الرابط من الرسالة مرة أخرى، أو انسخه كاملًا في المتصفح.',
      done: {
        verify: 'تم: تأكّد عنوانك. يمكنك إغلاق هذه الصفحة.',
        reset: 'تم: تغيّرت كلمة المرور. حفاظًا على أمانك سُجّل خروجك من كل مكان: سجّل الدخول من جديد بكلمة المرور الجديدة.',
        confirm: 'تم: أصبح حسابك يستخدم هذا العنوان. سجّل الدخول به من الآن فصاعدًا.',
      },
      gone: {
        verify:
          'سبق استخدام هذا الرابط أو انتهت صلاحيته (يعمل مرة واحدة، مدة 24 ساعة). إن كنت قد أكّدت عنوانك فلا شيء عليك. وإلا فاطلب كلمة مرور جديدة عبر «نسيت كلمة المرور؟» حيث تسجّل الدخول: ذلك الرابط يؤكّد عنوانك أيضًا.',
        reset:
          'سبق استخدام هذا الرابط أو انتهت صلاحيته (يعمل مرة واحدة، مدة 30 دقيقة). اطلب رابطًا جديدًا عبر «نسيت كلمة المرور؟» حيث تسجّل الدخول.',
        confirm:
          'سبق استخدام هذا الرابط أو انتهت صلاحيته (يعمل مرة واحدة، مدة 24 ساعة). سجّل الدخول واطلب التغيير من جديد لتحصل على رابط جديد.',
      },
      taken: 'أصبح هذا العنوان تابعًا لحساب آخر، فلم يتم التغيير.',
      emptyPassword: 'اكتب كلمة المرور الجديدة في الحقلين أولًا.',
      mismatch: 'كلمتا المرور غير متطابقتين. اكتب كلمة المرور الجديدة مرة أخرى في الحقلين.',
      errors: {
        network: 'تعذّر الوصول إلى الخدمة. تحقّق من اتصالك، ثم حاول مرة أخرى.',
        unknown: 'حدث خطأ ما. حاول مرة أخرى بعد بضع دقائق.',
        rate: 'محاولات كثيرة جدًا. انتظر بضع دقائق، ثم حاول مرة أخرى.',
        unavailable: 'الخدمة مشغولة الآن. حاول مرة أخرى بعد بضع دقائق.',
        check: 'تحقّق مما كتبته من فضلك:',
        fields: { newPassword: 'كلمة المرور الجديدة' },
      },
    },
  },
  es: {
    pages: {
      verify: {
        title: 'Confirme su dirección de correo',
        intro: 'Ha creado una cuenta con esta dirección. Pulse el botón para confirmar que es suya.',
        button: 'Confirmar mi dirección',
      },
      reset: {
        title: 'Elija una contraseña nueva',
        intro: 'Ha pedido restablecer su contraseña. Escriba una nueva dos veces y pulse el botón.',
        button: 'Guardar mi contraseña nueva',
      },
      confirm: {
        title: 'Confirme su nueva dirección de correo',
        intro: 'Ha pedido cambiar la dirección de correo de su cuenta por esta. Pulse el botón para confirmarlo.',
        button: 'Confirmar el cambio',
      },
    },
    newPassword: 'Contraseña nueva',
    newPasswordHint:
      'Al menos 10 caracteres y difícil de adivinar: unas cuantas palabras poco comunes son una buena contraseña.',
    repeatPassword: 'Contraseña nueva otra vez',
    noscript:
      'Esta página necesita JavaScript, que está desactivado en este navegador. Actívelo o pida ayuda a alguien de confianza.',
    script: {
      working: 'Un momento…',
      noToken: 'Este enlace no está completo. Abra de nuevo el enlace del mensaje o cópielo entero en el navegador.',
      done: {
        verify: 'Hecho: su dirección está confirmada. Puede cerrar esta página.',
        reset:
          'Hecho: su contraseña ha cambiado. Por seguridad se ha cerrado su sesión en todas partes: inicie sesión de nuevo con la contraseña nueva.',
        confirm: 'Hecho: su cuenta usa ahora esta dirección. Inicie sesión con ella a partir de ahora.',
      },
      gone: {
        verify:
          'Este enlace ya se ha usado o ha caducado (funciona una vez, durante 24 horas). Si ya confirmó su dirección, no tiene que hacer nada más. Si no, pida una contraseña nueva con «¿Ha olvidado su contraseña?» donde inicia sesión: ese enlace también confirma su dirección.',
        reset:
          'Este enlace ya se ha usado o ha caducado (funciona una vez, durante 30 minutos). Pida uno nuevo con «¿Ha olvidado su contraseña?» donde inicia sesión.',
        confirm:
          'Este enlace ya se ha usado o ha caducado (funciona una vez, durante 24 horas). Inicie sesión y pida de nuevo el cambio para recibir un enlace nuevo.',
      },
      taken: 'Esta dirección pertenece ahora a otra cuenta, así que el cambio no se ha hecho.',
      emptyPassword: 'Escriba primero su contraseña nueva en los dos campos.',
      mismatch: 'Las dos contraseñas no coinciden. Escriba de nuevo la contraseña nueva en los dos campos.',
      errors: {
        network: 'No se ha podido contactar con el servicio. Compruebe su conexión e inténtelo de nuevo.',
        unknown: 'Algo ha salido mal. Inténtelo de nuevo dentro de unos minutos.',
        rate: 'Demasiados intentos. Espere unos minutos e inténtelo de nuevo.',
        unavailable: 'El servicio está ocupado en este momento. Inténtelo de nuevo dentro de unos minutos.',
        check: 'Revise lo que ha escrito, por favor:',
        fields: { newPassword: 'Contraseña nueva' },
      },
    },
  },
  fr: {
    pages: {
      verify: {
        title: 'Confirmez votre adresse e-mail',
        intro:
          'Vous avez créé un compte avec cette adresse. Appuyez sur le bouton pour confirmer qu’elle est bien à vous.',
        button: 'Confirmer mon adresse',
      },
      reset: {
        title: 'Choisissez un nouveau mot de passe',
        intro:
          'Vous avez demandé à réinitialiser votre mot de passe. Tapez-en un nouveau deux fois, puis appuyez sur le bouton.',
        button: 'Enregistrer mon nouveau mot de passe',
      },
      confirm: {
        title: 'Confirmez votre nouvelle adresse e-mail',
        intro:
          'Vous avez demandé que votre compte utilise désormais cette adresse e-mail. Appuyez sur le bouton pour le confirmer.',
        button: 'Confirmer le changement',
      },
    },
    newPassword: 'Nouveau mot de passe',
    newPasswordHint:
      'Au moins 10 caractères, et difficile à deviner\u00a0: quelques mots peu courants font un bon mot de passe.',
    repeatPassword: 'Nouveau mot de passe, une seconde fois',
    noscript:
      "Cette page a besoin de JavaScript, qui est désactivé dans ce navigateur. Activez-le, ou demandez de l'aide à une personne de confiance.",
    script: {
      working: 'Un instant…',
      noToken:
        "Ce lien n'est pas complet. Ouvrez de nouveau le lien du message, ou copiez-le en entier dans le navigateur.",
      done: {
        verify: 'C’est fait\u00a0: votre adresse est confirmée. Vous pouvez fermer cette page.',
        reset:
          'C’est fait\u00a0: votre mot de passe est changé. Par sécurité, vous avez été déconnecté partout\u00a0: reconnectez-vous avec le nouveau mot de passe.',
        confirm: 'C’est fait\u00a0: votre compte utilise maintenant cette adresse. Connectez-vous désormais avec elle.',
      },
      gone: {
        verify:
          "Ce lien a déjà servi ou a expiré (il fonctionne une fois, pendant 24 heures). Si vous avez déjà confirmé votre adresse, il n'y a rien d'autre à faire. Sinon, demandez un nouveau mot de passe avec «\u00a0Mot de passe oublié\u00a0?\u00a0» là où vous vous connectez\u00a0: ce lien confirme aussi votre adresse.",
        reset:
          'Ce lien a déjà servi ou a expiré (il fonctionne une fois, pendant 30 minutes). Demandez-en un nouveau avec «\u00a0Mot de passe oublié\u00a0?\u00a0» là où vous vous connectez.',
        confirm:
          'Ce lien a déjà servi ou a expiré (il fonctionne une fois, pendant 24 heures). Connectez-vous et demandez de nouveau le changement pour recevoir un nouveau lien.',
      },
      taken: "Cette adresse appartient désormais à un autre compte\u00a0: le changement n'a pas été fait.",
      emptyPassword: "Tapez d'abord votre nouveau mot de passe dans les deux champs.",
      mismatch:
        'Les deux mots de passe ne sont pas identiques. Tapez de nouveau le nouveau mot de passe dans les deux champs.',
      errors: {
        network: "Le service n'a pas pu être joint. Vérifiez votre connexion, puis réessayez.",
        unknown: "Quelque chose s'est mal passé. Réessayez dans quelques minutes.",
        rate: 'Trop de tentatives. Attendez quelques minutes, puis réessayez.',
        unavailable: 'Le service est occupé pour le moment. Réessayez dans quelques minutes.',
        check: "Vérifiez ce que vous avez saisi, s'il vous plaît\u00a0:",
        fields: { newPassword: 'Nouveau mot de passe' },
      },
    },
  },
};
