/** Textos en español. Claros y amables: algunas personas que los leen acaban de perder a alguien. */
import type { LanguageFrame, TemplateTexts } from './types.js';

export const ES_FRAME: LanguageFrame = {
  footer:
    'Este mensaje lo envió automáticamente su servicio de planificación de herencias. Por favor, no responda a este correo.',
  unsubscribe: 'Puede dejar de recibir mensajes como este:',
  linkLabel: 'Enlace',
  colon: ':',
};

export const ES: TemplateTexts = {
  'verify-email': (d) => ({
    subject: 'Confirme su dirección de correo electrónico',
    paragraphs: [
      'Gracias por crear su cuenta. Por favor, confirme que esta dirección de correo es suya.',
      'El enlace solo puede usarse una vez y caduca en 24 horas. Si usted no creó ninguna cuenta, puede ignorar este mensaje.',
    ],
    action: { label: 'Confirmar mi dirección de correo', href: d.link },
  }),
  'password-reset': (d) => ({
    subject: 'Restablecer su contraseña',
    paragraphs: [
      'Alguien pidió restablecer la contraseña de su cuenta. Si fue usted, elija una nueva contraseña con el enlace de abajo.',
      'El enlace solo puede usarse una vez y caduca en 30 minutos. Si no lo pidió, puede ignorar este mensaje: su contraseña no cambia.',
    ],
    action: { label: 'Elegir una nueva contraseña', href: d.link },
  }),
  'email-change-confirm': (d) => ({
    subject: 'Confirme su nueva dirección de correo',
    paragraphs: [
      `Pidió usar ${d.newEmail} para su cuenta. Por favor, confirme el cambio con el enlace de abajo.`,
      'Si no lo pidió, puede ignorar este mensaje y nada cambiará.',
    ],
    action: { label: 'Confirmar la nueva dirección', href: d.link },
  }),
  'email-change-notice': (d) => ({
    subject: 'Se cambió la dirección de correo de su cuenta',
    paragraphs: [
      `La dirección de correo de su cuenta ahora es ${d.newEmail}. A partir de ahora, los mensajes llegarán a esa dirección.`,
      'Si usted no hizo este cambio, póngase en contacto con el servicio de ayuda cuanto antes.',
    ],
  }),
  'password-changed': (d) => ({
    subject: 'Se cambió la contraseña de su cuenta',
    paragraphs: [
      'La contraseña de su cuenta acaba de cambiarse y se cerró su sesión en todos los lugares donde la tenía abierta.',
      ...(d.workingKeys === '0'
        ? []
        : [
            d.workingKeys === undefined
              ? 'Las claves de API de su cuenta siguen funcionando: una contraseña nueva no las detiene. Si no reconoce alguna, revóquela.'
              : `Claves de API de su cuenta que siguen funcionando: ${d.workingKeys}. Una contraseña nueva no las detiene; si no reconoce alguna, revóquela.`,
          ]),
      'Si no la cambió usted, pida una contraseña nueva cuanto antes con «¿Ha olvidado su contraseña?» donde inicia sesión y revise después sus claves de API.',
    ],
  }),
  'checkin-reminder': (d) => ({
    subject: `Recordatorio para confirmar que está bien: ${d.planLabel}`,
    paragraphs: [
      `Su plan «${d.planLabel}» espera que confirme que está bien antes del ${d.deadline}.`,
      'Si no lo confirma a tiempo, el plan empezará a cumplir su voluntad. Si se encuentra bien, basta con confirmarlo.',
    ],
    action: d.checkInLink ? { label: 'Confirmar ahora', href: d.checkInLink } : undefined,
  }),
  'contract-checkin-reminder': (d) => ({
    subject: 'Recordatorio para confirmar que está bien en su contrato de herencia',
    paragraphs: [
      `Su contrato de herencia ${d.contractAddress} (red ${d.network}) espera que confirme que está bien antes del ${d.deadline}.`,
      'Para confirmarlo, envíe la transacción de confirmación al contrato desde su propia cartera, como explica su README. Si no lo hace, sus herederos podrán reclamar el patrimonio después de esa fecha.',
    ],
  }),
  'verification-started': (d) => ({
    subject: `Se ha comunicado un aviso sobre su plan: ${d.planLabel}`,
    paragraphs: [
      `Alguien comunicó un aviso sobre su plan «${d.planLabel}». Ha empezado un periodo de espera que termina el ${d.endsAt}.`,
      'Si se encuentra bien y el aviso es un error, puede cancelarlo antes de que termine el periodo de espera.',
    ],
    action: d.cancelLink ? { label: 'Cancelar este aviso', href: d.cancelLink } : undefined,
  }),
  'verification-failed': (d) => ({
    subject: `Se ha cancelado el aviso sobre su plan: ${d.planLabel}`,
    paragraphs: [
      `Ha confirmado que se encuentra bien, así que el periodo de espera de su plan «${d.planLabel}» ha terminado. No se ha abierto nada.`,
      'Si no lo hizo usted, inicie sesión y revise su cuenta.',
    ],
  }),
  'verification-complete': (d) => ({
    subject: `Ha terminado el periodo de espera de su plan: ${d.planLabel}`,
    paragraphs: [
      `El periodo de espera de su plan «${d.planLabel}» terminó sin ninguna señal suya. Partes abiertas para sus herederos: ${d.sharesOpened}.`,
      'Si se trata de un error, inicie sesión cuanto antes: puede retirar cada parte desde su cuenta.',
    ],
  }),
  'chain-released': (d) => ({
    subject: `Su contrato de herencia se ha liberado en la cadena: ${d.planLabel}`,
    paragraphs: [
      `Su contrato de herencia ${d.contractAddress} (red ${d.network}) se ha liberado en la cadena, porque no recibió ninguna confirmación suya antes de su plazo.`,
      `Sus herederos ya pueden reclamar los fondos en la cadena. Las partes de su plan «${d.planLabel}» se abrieron para ellos al mismo tiempo, sin periodo de espera: ${d.sharesOpened}.`,
      'Si se encuentra bien, inicie sesión cuanto antes: puede retirar cada parte desde su cuenta. Lo que el contrato liberó en la cadena no puede deshacerlo este servicio.',
    ],
  }),
  'heir-invitation': (d) => ({
    subject: `${d.ownerName} le ha incluido en su plan`,
    paragraphs: [
      `${d.ownerName} le ha nombrado heredero o heredera en su plan de herencia. Por ahora no tiene que hacer nada.`,
      `Su código personal es ${d.claimCode}. Guárdelo en un lugar seguro y no lo comparta con nadie.`,
      'Cuando llegue el momento, recibirá otro mensaje que le explicará qué hacer.',
    ],
    action: { label: 'Ver su lugar en el plan', href: d.claimLink },
  }),
  'heir-new-code': (d) => ({
    subject: `Un nuevo código para su parte del plan de ${d.ownerName}`,
    paragraphs: [
      `${d.ownerName} ha dado un nuevo código a su parte de su plan. El código que tenía ya no funciona, así que no podrá consultar la parte hasta que la reclame de nuevo.`,
      `Su nuevo código personal es ${d.claimCode}. Reclame la parte con él como hizo antes y su acceso continuará. Guárdelo en un lugar seguro y no lo comparta con nadie.`,
    ],
    action: { label: 'Cómo reclamar con su nuevo código', href: d.claimLink },
  }),
  'share-opened': (d) => ({
    subject: `Un mensaje sobre el plan de ${d.ownerName}`,
    paragraphs: [
      `Lamentamos profundamente su pérdida. El plan de ${d.ownerName} se ha abierto y su parte ya está disponible.`,
      'No hay ninguna prisa. Puede consultarla cuando se sienta preparado o preparada.',
    ],
    action: { label: 'Abrir su parte', href: d.link },
  }),
  'share-opened-chain': (d) => ({
    subject: `Una parte del plan de ${d.ownerName} está abierta para usted`,
    paragraphs: [
      `El contrato de herencia de ${d.ownerName} se ha liberado en la cadena después de que ${d.ownerName} no confirmara que estaba bien antes de su plazo. La parte de su plan reservada para usted ya está abierta.`,
      'Este servicio no puede saber por qué no llegó la confirmación. Si le es posible, quizá quiera ponerse en contacto con esa persona o con sus allegados.',
      'No hay ninguna prisa. Puede consultarla cuando se sienta preparado o preparada.',
    ],
    action: { label: 'Abrir su parte', href: d.link },
  }),
};
