/**
 * The words of the heirs' page (GET /heir, ./pages.ts heirPage) and of its script, in the four page languages.
 */
import type { PageLocale } from './page-locales.js';

/** What an heir's message was about. */
export type HeirTopic = 'invitation' | 'new-code' | 'share-opened';

/**
 * The words the page's script shows as things happen. `{email}`, `{title}` and `{date}` are filled in by the script,
 * which writes every text as text (never as HTML).
 */
export interface HeirScriptTexts {
  working: string;
  /** After "Forgot your password?": what happens next, whether or not the address has an account. */
  forgotSent: string;
  /** "Forgot your password?" with no address typed. */
  forgotEmail: string;
  registered: string;
  signedInAs: string;
  notVerified: string;
  stillNotVerified: string;
  claimed: string;
  noShares: string;
  states: { pending: string; waiting: string; open: string; openUntil: string; expired: string; revoked: string };
  bookPdf: string;
  bookText: string;
  itemsTitle: string;
  errors: {
    network: string;
    unknown: string;
    login: string;
    session: string;
    rate: string;
    unavailable: string;
    notVerified: string;
    emptyCode: string;
    badCode: string;
    unknownCode: string;
    otherEmail: string;
    conflict: string;
    check: string;
    fields: { name: string; email: string; password: string; code: string };
  };
}

interface HeirTexts {
  title: string;
  about: Record<HeirTopic | 'none', string>;
  stepsTitle: string;
  steps: [string, string, string, string];
  privacy: string;
  noscript: string;
  form: {
    registerTitle: string;
    name: string;
    email: string;
    password: string;
    passwordHint: string;
    registerButton: string;
    loginTitle: string;
    loginPassword: string;
    loginButton: string;
    forgotButton: string;
    signOut: string;
    checkAgain: string;
    claimTitle: string;
    code: string;
    codeHint: string;
    claimButton: string;
    sharesTitle: string;
    refresh: string;
  };
  script: HeirScriptTexts;
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
      'Create an account below with the very address the message was sent to, or sign in if you already have one. A share sent to you can only be claimed with that address.',
      'We email you a link to confirm the address. Open it, then come back to this page and sign in.',
      'Once signed in, type or paste your code (it starts with “shc_”) and claim your share.',
      'Your shares are listed below, with when each one opens. A share can be read once it has opened.',
    ],
    privacy:
      'Never type your code into a web address or share it with anyone. This page sends what you type only to this service, and does not keep your code.',
    noscript:
      'The forms on this page need JavaScript, which is turned off in this browser. Turn it on, or ask someone you trust to help you.',
    form: {
      registerTitle: 'Create an account',
      name: 'Your name',
      email: 'Email address (the one the message was sent to)',
      password: 'Choose a password',
      passwordHint: 'At least 10 characters, and not easy to guess: a few uncommon words make a good password.',
      registerButton: 'Create my account',
      loginTitle: 'Already have an account? Sign in',
      loginPassword: 'Password',
      loginButton: 'Sign in',
      forgotButton: 'Forgot your password?',
      signOut: 'Sign out',
      checkAgain: 'I have confirmed it',
      claimTitle: 'Claim your share',
      code: 'Your code',
      codeHint: 'Type or paste the code from your message. It starts with “shc_”.',
      claimButton: 'Claim my share',
      sharesTitle: 'Your shares',
      refresh: 'Refresh',
    },
    script: {
      working: 'One moment…',
      forgotSent:
        'If an account has this address, we have emailed it a link to choose a new password. Open it, then come back here and sign in.',
      forgotEmail: 'Type your email address above first.',
      registered:
        'Thank you. We sent a message to {email} with a link to confirm the address. Open that link, then come back to this page and sign in below. (If this address already had an account, the message explains how to choose a new password instead.)',
      signedInAs: 'You are signed in as {email}.',
      notVerified:
        'Your address is not confirmed yet. Open the link in the message we sent to {email} when you created the account, then press “I have confirmed it”.',
      stillNotVerified:
        'The address is still not confirmed. The link works for 24 hours; look in your spam folder too.',
      claimed: 'Done: the share “{title}” is now linked to your account.',
      noShares: 'You have not claimed a share yet.',
      states: {
        pending:
          'Waiting: not open yet. It opens only after its owner has passed away and a waiting period of at least seven days has ended.',
        waiting: 'Waiting: it opens on {date}.',
        open: 'Open: you can read it now.',
        openUntil: 'Open until {date}: you can read it now.',
        expired: 'Closed: the time to read it has ended.',
        revoked: 'Withdrawn: its owner took this share back.',
      },
      bookPdf: 'Download the memoir as a book (PDF)',
      bookText: 'Download the memoir as text',
      itemsTitle: 'Documents left for you',
      errors: {
        network: 'The service could not be reached. Check your connection, then try again.',
        unknown: 'Something went wrong. Please try again in a few minutes.',
        login: 'The email address or the password is not right.',
        session: 'You are no longer signed in. Please sign in again.',
        rate: 'Too many attempts. Please wait a few minutes, then try again.',
        unavailable: 'The service is busy right now. Please try again in a few minutes.',
        notVerified:
          'Your address is not confirmed yet: open the link in the message we sent you when you created the account, then try again.',
        emptyCode: 'Type or paste your code first.',
        badCode:
          'This is not a whole claim code. It starts with “shc_” followed by 43 letters and digits: copy it whole from the message.',
        unknownCode:
          'No share matches this code. Check that you copied it whole from the message; its owner may also have replaced or withdrawn it.',
        otherEmail: 'This share is for another email address: sign in with the address the message was sent to.',
        conflict:
          'This share has already been claimed by another account, or it was given by your own account. Ask its owner for a new code if you need one.',
        check: 'Please check what you typed:',
        fields: { name: 'Name', email: 'Email address', password: 'Password', code: 'Code' },
      },
    },
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
      'أنشئ حسابًا أدناه بالعنوان نفسه الذي أُرسلت إليه الرسالة، أو سجّل الدخول إن كان لديك حساب. لا يمكن المطالبة بالحصة المرسلة إليك إلا بذلك العنوان.',
      'نرسل إليك بالبريد الإلكتروني رابطًا لتأكيد العنوان. افتحه، ثم عُد إلى هذه الصفحة وسجّل الدخول.',
      'بعد تسجيل الدخول، اكتب رمزك أو الصقه (يبدأ بـ «shc_») وطالب بحصتك.',
      'تظهر حصصك أدناه مع موعد فتح كل منها. يمكن قراءة الحصة بعد أن تُفتح.',
    ],
    privacy:
      'لا تكتب رمزك في عنوان صفحة ولا تشاركه مع أحد. هذه الصفحة لا ترسل ما تكتبه إلا إلى هذه الخدمة، ولا تحتفظ برمزك.',
    noscript:
      'تحتاج النماذج في هذه الصفحة إلى JavaScript، وهو معطّل في هذا المتصفح. فعّله، أو اطلب المساعدة من شخص تثق به.',
    form: {
      registerTitle: 'أنشئ حسابًا',
      name: 'اسمك',
      email: 'عنوان البريد الإلكتروني (الذي أُرسلت إليه الرسالة)',
      password: 'اختر كلمة مرور',
      passwordHint: '10 أحرف على الأقل، ويصعب تخمينها: بضع كلمات غير شائعة تصنع كلمة مرور جيدة.',
      registerButton: 'أنشئ حسابي',
      loginTitle: 'لديك حساب؟ سجّل الدخول',
      loginPassword: 'كلمة المرور',
      loginButton: 'تسجيل الدخول',
      forgotButton: 'نسيت كلمة المرور؟',
      signOut: 'تسجيل الخروج',
      checkAgain: 'لقد أكّدته',
      claimTitle: 'طالب بحصتك',
      code: 'رمزك',
      codeHint: 'اكتب الرمز الوارد في رسالتك أو الصقه. يبدأ بـ «shc_».',
      claimButton: 'طالب بحصتي',
      sharesTitle: 'حصصك',
      refresh: 'تحديث',
    },
    script: {
      working: 'لحظة من فضلك…',
      forgotSent:
        'إن كان هناك حساب بهذا العنوان، فقد أرسلنا إليه رابطًا لاختيار كلمة مرور جديدة. افتحه ثم عُد إلى هذه الصفحة وسجّل الدخول.',
      forgotEmail: 'اكتب عنوان بريدك الإلكتروني أعلاه أولًا.',
      registered:
        'شكرًا لك. أرسلنا رسالة إلى {email} فيها رابط لتأكيد العنوان. افتح ذلك الرابط، ثم عُد إلى هذه الصفحة وسجّل الدخول أدناه. (إن كان لهذا العنوان حساب من قبل، فالرسالة تشرح كيف تختار كلمة مرور جديدة بدلًا من ذلك.)',
      signedInAs: 'أنت مسجّل الدخول باسم {email}.',
      notVerified:
        'لم يُؤكَّد عنوانك بعد. افتح الرابط في الرسالة التي أرسلناها إلى {email} عند إنشاء الحساب، ثم اضغط «لقد أكّدته».',
      stillNotVerified: 'لم يُؤكَّد العنوان بعد. يعمل الرابط مدة 24 ساعة؛ ابحث في مجلد الرسائل غير المرغوب فيها أيضًا.',
      claimed: 'تم: أصبحت الحصة «{title}» مرتبطة بحسابك.',
      noShares: 'لم تطالب بأي حصة بعد.',
      states: {
        pending: 'في الانتظار: لم تُفتح بعد. لا تُفتح إلا بعد وفاة صاحبها وانقضاء فترة انتظار لا تقل عن سبعة أيام.',
        waiting: 'في الانتظار: تُفتح في {date}.',
        open: 'مفتوحة: يمكنك قراءتها الآن.',
        openUntil: 'مفتوحة حتى {date}: يمكنك قراءتها الآن.',
        expired: 'مغلقة: انتهت مدة قراءتها.',
        revoked: 'مسحوبة: استعاد صاحبها هذه الحصة.',
      },
      bookPdf: 'نزّل المذكرات في كتاب (PDF)',
      bookText: 'نزّل المذكرات نصًّا',
      itemsTitle: 'وثائق تُركت لك',
      errors: {
        network: 'تعذّر الوصول إلى الخدمة. تحقّق من اتصالك، ثم حاول مرة أخرى.',
        unknown: 'حدث خطأ ما. حاول مرة أخرى بعد بضع دقائق.',
        login: 'عنوان البريد الإلكتروني أو كلمة المرور غير صحيحة.',
        session: 'لم تعد مسجّل الدخول. سجّل الدخول مرة أخرى من فضلك.',
        rate: 'محاولات كثيرة جدًا. انتظر بضع دقائق، ثم حاول مرة أخرى.',
        unavailable: 'الخدمة مشغولة الآن. حاول مرة أخرى بعد بضع دقائق.',
        notVerified:
          'لم يُؤكَّد عنوانك بعد: افتح الرابط في الرسالة التي أرسلناها إليك عند إنشاء الحساب، ثم حاول مرة أخرى.',
        emptyCode: 'اكتب رمزك أو الصقه أولًا.',
        badCode: 'هذا ليس رمز مطالبة كاملًا. يبدأ بـ «shc_» ويليه 43 حرفًا ورقمًا: انسخه كاملًا من الرسالة.',
        unknownCode: 'لا توجد حصة تطابق هذا الرمز. تأكّد أنك نسخته كاملًا من الرسالة؛ وربما استبدله صاحبه أو سحبه.',
        otherEmail: 'هذه الحصة لعنوان بريد آخر: سجّل الدخول بالعنوان الذي أُرسلت إليه الرسالة.',
        conflict: 'طالب حساب آخر بهذه الحصة من قبل، أو أنها من حسابك أنت. اطلب من صاحبها رمزًا جديدًا إن احتجت إليه.',
        check: 'تحقّق مما كتبته من فضلك:',
        fields: { name: 'الاسم', email: 'عنوان البريد الإلكتروني', password: 'كلمة المرور', code: 'الرمز' },
      },
    },
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
      'Cree una cuenta aquí abajo con la misma dirección a la que se envió el mensaje, o inicie sesión si ya tiene una. Una parte enviada a usted solo se puede reclamar con esa dirección.',
      'Le enviamos por correo un enlace para confirmar la dirección. Ábralo, vuelva a esta página e inicie sesión.',
      'Con la sesión iniciada, escriba o pegue su código (empieza por «shc_») y reclame su parte.',
      'Sus partes aparecen más abajo, con la fecha en que se abre cada una. Una parte se puede leer cuando se ha abierto.',
    ],
    privacy:
      'Nunca escriba su código en una dirección web ni lo comparta con nadie. Esta página solo envía lo que usted escribe a este servicio y no guarda su código.',
    noscript:
      'Los formularios de esta página necesitan JavaScript, que está desactivado en este navegador. Actívelo o pida ayuda a alguien de confianza.',
    form: {
      registerTitle: 'Crear una cuenta',
      name: 'Su nombre',
      email: 'Dirección de correo (a la que se envió el mensaje)',
      password: 'Elija una contraseña',
      passwordHint:
        'Al menos 10 caracteres y difícil de adivinar: unas cuantas palabras poco comunes son una buena contraseña.',
      registerButton: 'Crear mi cuenta',
      loginTitle: '¿Ya tiene una cuenta? Inicie sesión',
      loginPassword: 'Contraseña',
      loginButton: 'Iniciar sesión',
      forgotButton: '¿Olvidó su contraseña?',
      signOut: 'Cerrar sesión',
      checkAgain: 'Ya la he confirmado',
      claimTitle: 'Reclamar su parte',
      code: 'Su código',
      codeHint: 'Escriba o pegue el código de su mensaje. Empieza por «shc_».',
      claimButton: 'Reclamar mi parte',
      sharesTitle: 'Sus partes',
      refresh: 'Actualizar',
    },
    script: {
      working: 'Un momento…',
      forgotSent:
        'Si hay una cuenta con esta dirección, le hemos enviado un enlace para elegir una contraseña nueva. Ábralo y vuelva a esta página para iniciar sesión.',
      forgotEmail: 'Escriba primero su dirección de correo arriba.',
      registered:
        'Gracias. Hemos enviado a {email} un mensaje con un enlace para confirmar la dirección. Abra ese enlace, vuelva a esta página e inicie sesión aquí abajo. (Si esta dirección ya tenía una cuenta, el mensaje explica cómo elegir una contraseña nueva.)',
      signedInAs: 'Ha iniciado sesión como {email}.',
      notVerified:
        'Su dirección aún no está confirmada. Abra el enlace del mensaje que enviamos a {email} al crear la cuenta y pulse «Ya la he confirmado».',
      stillNotVerified:
        'La dirección sigue sin confirmar. El enlace funciona durante 24 horas; mire también en la carpeta de correo no deseado.',
      claimed: 'Hecho: la parte «{title}» está ahora vinculada a su cuenta.',
      noShares: 'Aún no ha reclamado ninguna parte.',
      states: {
        pending:
          'En espera: aún no está abierta. Solo se abre después del fallecimiento de su titular, cuando haya terminado un periodo de espera de al menos siete días.',
        waiting: 'En espera: se abre el {date}.',
        open: 'Abierta: puede leerla ahora.',
        openUntil: 'Abierta hasta el {date}: puede leerla ahora.',
        expired: 'Cerrada: el plazo para leerla ha terminado.',
        revoked: 'Retirada: su titular ha retirado esta parte.',
      },
      bookPdf: 'Descargar las memorias como libro (PDF)',
      bookText: 'Descargar las memorias como texto',
      itemsTitle: 'Documentos que le han dejado',
      errors: {
        network: 'No se ha podido contactar con el servicio. Compruebe su conexión e inténtelo de nuevo.',
        unknown: 'Algo ha salido mal. Inténtelo de nuevo dentro de unos minutos.',
        login: 'La dirección de correo o la contraseña no son correctas.',
        session: 'Su sesión ha terminado. Inicie sesión de nuevo, por favor.',
        rate: 'Demasiados intentos. Espere unos minutos e inténtelo de nuevo.',
        unavailable: 'El servicio está ocupado en este momento. Inténtelo de nuevo dentro de unos minutos.',
        notVerified:
          'Su dirección aún no está confirmada: abra el enlace del mensaje que le enviamos al crear la cuenta e inténtelo de nuevo.',
        emptyCode: 'Escriba o pegue primero su código.',
        badCode:
          'Esto no es un código de reclamación completo. Empieza por «shc_» seguido de 43 letras y cifras: cópielo entero del mensaje.',
        unknownCode:
          'Ninguna parte corresponde a este código. Compruebe que lo ha copiado entero del mensaje; puede que su titular también lo haya sustituido o retirado.',
        otherEmail:
          'Esta parte es para otra dirección de correo: inicie sesión con la dirección a la que se envió el mensaje.',
        conflict:
          'Otra cuenta ya ha reclamado esta parte, o la ha dado su propia cuenta. Pida un código nuevo a su titular si lo necesita.',
        check: 'Revise lo que ha escrito, por favor:',
        fields: { name: 'Nombre', email: 'Dirección de correo', password: 'Contraseña', code: 'Código' },
      },
    },
  },
  fr: {
    title: 'Vous avez été désigné comme héritier',
    about: {
      invitation:
        "Vous avez reçu un message disant qu'une personne vous a désigné comme héritier dans son plan de succession. Il contient votre code personnel de réclamation (il commence par «\u00a0shc_\u00a0»). Gardez ce message\u00a0: rien ne vous est demandé pour l'instant.",
      'new-code':
        "Vous avez reçu un message contenant un nouveau code personnel de réclamation pour une part qui vous était déjà ouverte. L'ancien code ne fonctionne plus\u00a0: réclamez de nouveau la part avec le nouveau code (les étapes sont ci-dessous) et vous pourrez la lire à nouveau.",
      'share-opened':
        "Vous avez reçu un message disant qu'une part d'un plan s'est ouverte pour vous. Vous pouvez la réclamer avec le code personnel reçu auparavant, quand vous vous sentirez prêt.",
      none: 'Une personne vous a désigné comme héritier dans son plan de succession. Vous avez reçu votre code personnel de réclamation (il commence par «\u00a0shc_\u00a0») par e-mail.',
    },
    stepsTitle: 'Comment réclamer votre part',
    steps: [
      "Créez un compte ci-dessous avec l'adresse même à laquelle le message a été envoyé, ou connectez-vous si vous en avez déjà un. Une part qui vous est destinée ne peut être réclamée qu'avec cette adresse.",
      "Nous vous envoyons par e-mail un lien pour confirmer l'adresse. Ouvrez-le, puis revenez sur cette page et connectez-vous.",
      'Une fois connecté, tapez ou collez votre code (il commence par «\u00a0shc_\u00a0») et réclamez votre part.',
      "Vos parts sont listées ci-dessous, avec la date d'ouverture de chacune. Une part peut être lue une fois qu'elle s'est ouverte.",
    ],
    privacy:
      "Ne tapez jamais votre code dans une adresse web et ne le partagez avec personne. Cette page n'envoie ce que vous tapez qu'à ce service, et ne garde pas votre code.",
    noscript:
      "Les formulaires de cette page ont besoin de JavaScript, qui est désactivé dans ce navigateur. Activez-le, ou demandez de l'aide à une personne de confiance.",
    form: {
      registerTitle: 'Créer un compte',
      name: 'Votre nom',
      email: 'Adresse e-mail (celle à laquelle le message a été envoyé)',
      password: 'Choisissez un mot de passe',
      passwordHint:
        'Au moins 10 caractères, et difficile à deviner\u00a0: quelques mots peu courants font un bon mot de passe.',
      registerButton: 'Créer mon compte',
      loginTitle: 'Vous avez déjà un compte\u00a0? Connectez-vous',
      loginPassword: 'Mot de passe',
      loginButton: 'Se connecter',
      forgotButton: 'Mot de passe oublié\u00a0?',
      signOut: 'Se déconnecter',
      checkAgain: "Je l'ai confirmée",
      claimTitle: 'Réclamer votre part',
      code: 'Votre code',
      codeHint: 'Tapez ou collez le code reçu dans votre message. Il commence par «\u00a0shc_\u00a0».',
      claimButton: 'Réclamer ma part',
      sharesTitle: 'Vos parts',
      refresh: 'Actualiser',
    },
    script: {
      working: 'Un instant…',
      forgotSent:
        'Si un compte existe à cette adresse, nous y avons envoyé un lien pour choisir un nouveau mot de passe. Ouvrez-le, puis revenez sur cette page pour vous connecter.',
      forgotEmail: "Saisissez d'abord votre adresse e-mail ci-dessus.",
      registered:
        "Merci. Nous avons envoyé à {email} un message avec un lien pour confirmer l'adresse. Ouvrez ce lien, puis revenez sur cette page et connectez-vous ci-dessous. (Si cette adresse avait déjà un compte, le message explique plutôt comment choisir un nouveau mot de passe.)",
      signedInAs: 'Vous êtes connecté en tant que {email}.',
      notVerified:
        "Votre adresse n'est pas encore confirmée. Ouvrez le lien du message envoyé à {email} à la création du compte, puis appuyez sur «\u00a0Je l'ai confirmée\u00a0».",
      stillNotVerified:
        "L'adresse n'est toujours pas confirmée. Le lien fonctionne pendant 24 heures\u00a0; regardez aussi dans vos courriers indésirables.",
      claimed: 'C’est fait\u00a0: la part «\u00a0{title}\u00a0» est maintenant liée à votre compte.',
      noShares: "Vous n'avez encore réclamé aucune part.",
      states: {
        pending:
          "En attente\u00a0: pas encore ouverte. Elle ne s'ouvre qu'après le décès de son auteur, une fois écoulé un délai d'attente d'au moins sept jours.",
        waiting: "En attente\u00a0: elle s'ouvre le {date}.",
        open: 'Ouverte\u00a0: vous pouvez la lire dès maintenant.',
        openUntil: "Ouverte jusqu'au {date}\u00a0: vous pouvez la lire dès maintenant.",
        expired: 'Fermée\u00a0: le temps pour la lire est écoulé.',
        revoked: 'Retirée\u00a0: son auteur a repris cette part.',
      },
      bookPdf: 'Télécharger les mémoires en livre (PDF)',
      bookText: 'Télécharger les mémoires en texte',
      itemsTitle: 'Documents laissés pour vous',
      errors: {
        network: "Le service n'a pas pu être joint. Vérifiez votre connexion, puis réessayez.",
        unknown: "Quelque chose s'est mal passé. Réessayez dans quelques minutes.",
        login: "L'adresse e-mail ou le mot de passe n'est pas le bon.",
        session: "Vous n'êtes plus connecté. Connectez-vous à nouveau, s'il vous plaît.",
        rate: 'Trop de tentatives. Attendez quelques minutes, puis réessayez.',
        unavailable: 'Le service est occupé pour le moment. Réessayez dans quelques minutes.',
        notVerified:
          "Votre adresse n'est pas encore confirmée\u00a0: ouvrez le lien du message envoyé à la création du compte, puis réessayez.",
        emptyCode: "Tapez ou collez d'abord votre code.",
        badCode:
          "Ce n'est pas un code de réclamation complet. Il commence par «\u00a0shc_\u00a0» suivi de 43 lettres et chiffres\u00a0: copiez-le en entier depuis le message.",
        unknownCode:
          "Aucune part ne correspond à ce code. Vérifiez que vous l'avez copié en entier depuis le message\u00a0; son auteur a aussi pu le remplacer ou le retirer.",
        otherEmail:
          "Cette part est destinée à une autre adresse e-mail\u00a0: connectez-vous avec l'adresse à laquelle le message a été envoyé.",
        conflict:
          'Un autre compte a déjà réclamé cette part, ou elle a été donnée par votre propre compte. Demandez un nouveau code à son auteur si besoin.',
        check: "Vérifiez ce que vous avez saisi, s'il vous plaît\u00a0:",
        fields: { name: 'Nom', email: 'Adresse e-mail', password: 'Mot de passe', code: 'Code' },
      },
    },
  },
};
