/**
 * Textes en français, sobres et bienveillants, car certaines personnes qui les lisent viennent de perdre un proche.
 * French typography puts a no-break space (written \u00a0) before : ; ! ? and » and after «, so a line never starts
 * with one of those marks.
 */
import type { LanguageFrame, TemplateTexts } from './types.js';

/** A name or a label between French quotation marks. */
const quoted = (value: string): string => `«\u00a0${value}\u00a0»`;

export const FR_FRAME: LanguageFrame = {
  footer:
    'Ce message vous a été envoyé automatiquement par votre service de planification successorale. Veuillez ne pas y répondre.',
  unsubscribe: 'Vous pouvez cesser de recevoir les messages de ce type\u00a0:',
  linkLabel: 'Lien',
  colon: '\u00a0:',
};

export const FR: TemplateTexts = {
  'verify-email': (d) => ({
    subject: 'Veuillez confirmer votre adresse e-mail',
    paragraphs: [
      'Merci d’avoir créé votre compte. Veuillez confirmer que cette adresse e-mail est bien la vôtre.',
      'Le lien ne fonctionne qu’une fois et expire dans 24\u00a0heures. Si vous n’avez pas créé de compte, vous pouvez ignorer ce message.',
    ],
    action: { label: 'Confirmer mon adresse e-mail', href: d.link },
  }),
  'password-reset': (d) => ({
    subject: 'Réinitialisation de votre mot de passe',
    paragraphs: [
      'Quelqu’un a demandé la réinitialisation du mot de passe de votre compte. Si c’est vous, choisissez un nouveau mot de passe avec le lien ci-dessous.',
      'Le lien ne fonctionne qu’une fois et expire dans 30\u00a0minutes. Si vous n’êtes pas à l’origine de cette demande, vous pouvez ignorer ce message\u00a0: votre mot de passe reste le même.',
    ],
    action: { label: 'Choisir un nouveau mot de passe', href: d.link },
  }),
  'email-change-confirm': (d) => ({
    subject: 'Veuillez confirmer votre nouvelle adresse e-mail',
    paragraphs: [
      `Vous avez demandé à utiliser l’adresse ${d.newEmail} pour votre compte. Veuillez confirmer ce changement avec le lien ci-dessous.`,
      'Si vous n’êtes pas à l’origine de cette demande, vous pouvez ignorer ce message et rien ne changera.',
    ],
    action: { label: 'Confirmer la nouvelle adresse', href: d.link },
  }),
  'email-change-notice': (d) => ({
    subject: 'L’adresse e-mail de votre compte a été modifiée',
    paragraphs: [
      `L’adresse e-mail de votre compte est maintenant ${d.newEmail}. Les messages seront désormais envoyés à cette adresse.`,
      'Si vous n’êtes pas à l’origine de ce changement, veuillez contacter l’assistance sans attendre.',
    ],
  }),
  'password-changed': (d) => ({
    subject: 'Le mot de passe de votre compte a été modifié',
    paragraphs: [
      'Le mot de passe de votre compte vient d’être modifié, et vous avez été déconnecté partout où vous étiez connecté.',
      ...(d.workingKeys === '0'
        ? []
        : [
            d.workingKeys === undefined
              ? 'Les clés d’API de votre compte continuent de fonctionner\u00a0: un nouveau mot de passe ne les arrête pas. Si vous n’en reconnaissez pas une, révoquez-la.'
              : `Clés d’API de votre compte qui continuent de fonctionner\u00a0: ${d.workingKeys}. Un nouveau mot de passe ne les arrête pas\u00a0; si vous n’en reconnaissez pas une, révoquez-la.`,
          ]),
      'Si vous ne l’avez pas modifié vous-même, demandez sans attendre un nouveau mot de passe avec «\u00a0Mot de passe oublié\u00a0?\u00a0» là où vous vous connectez, puis vérifiez vos clés d’API.',
    ],
  }),
  'checkin-reminder': (d) => ({
    subject: `Rappel pour signaler votre présence\u00a0: ${d.planLabel}`,
    paragraphs: [
      `Votre plan ${quoted(d.planLabel)} attend que vous signaliez votre présence avant le ${d.deadline}.`,
      'Si vous ne l’avez pas fait d’ici là, le plan commencera à exécuter vos volontés. Si vous allez bien, il vous suffit de signaler votre présence.',
    ],
    action: d.checkInLink ? { label: 'Signaler ma présence maintenant', href: d.checkInLink } : undefined,
  }),
  'contract-checkin-reminder': (d) => ({
    subject: 'Rappel pour vous manifester auprès de votre contrat de succession',
    paragraphs: [
      `Votre contrat de succession ${d.contractAddress} (réseau ${d.network}) attend que vous vous manifestiez avant le ${d.deadline}.`,
      'Pour vous manifester, envoyez au contrat, depuis votre propre portefeuille, la transaction prévue à cet effet, comme l’explique son README. Si vous ne le faites pas, vos héritiers pourront réclamer le patrimoine après cette date.',
    ],
  }),
  'verification-started': (d) => ({
    subject: `Un changement a été signalé pour votre plan\u00a0: ${d.planLabel}`,
    paragraphs: [
      `Un événement déclencheur a été signalé pour votre plan ${quoted(d.planLabel)}. Un délai d’attente a commencé et prendra fin le ${d.endsAt}.`,
      'Si vous allez bien et que ce signalement est une erreur, vous pouvez l’annuler avant la fin du délai d’attente.',
    ],
    action: d.cancelLink ? { label: 'Annuler ce signalement', href: d.cancelLink } : undefined,
  }),
  'verification-failed': (d) => ({
    subject: `Le signalement concernant votre plan a été annulé\u00a0: ${d.planLabel}`,
    paragraphs: [
      `Vous avez fait savoir que vous alliez bien\u00a0: le délai d’attente de votre plan ${quoted(d.planLabel)} a donc pris fin. Rien n’a été ouvert.`,
      'Si ce n’est pas vous qui l’avez fait, veuillez vous connecter et vérifier votre compte.',
    ],
  }),
  'verification-complete': (d) => ({
    subject: `Le délai d’attente de votre plan a pris fin\u00a0: ${d.planLabel}`,
    paragraphs: [
      `Le délai d’attente de votre plan ${quoted(d.planLabel)} a pris fin sans aucun signe de votre part. Parts ouvertes pour vos héritiers\u00a0: ${d.sharesOpened}.`,
      'S’il s’agit d’une erreur, connectez-vous sans attendre\u00a0: vous pouvez retirer chaque part depuis votre compte.',
    ],
  }),
  'chain-released': (d) => ({
    subject: `Votre contrat de succession a été libéré sur la blockchain\u00a0: ${d.planLabel}`,
    paragraphs: [
      `Votre contrat de succession ${d.contractAddress} (réseau ${d.network}) a été libéré sur la blockchain, car aucune manifestation de votre part ne lui est parvenue avant son échéance.`,
      `Vos héritiers peuvent désormais réclamer les fonds sur la blockchain. Les parts de votre plan ${quoted(d.planLabel)} se sont ouvertes pour eux au même moment, sans délai d’attente\u00a0: ${d.sharesOpened}.`,
      'Si vous allez bien, connectez-vous sans attendre\u00a0: vous pouvez retirer chaque part depuis votre compte. Ce que le contrat a libéré sur la blockchain ne peut pas être repris par ce service.',
    ],
  }),
  'heir-invitation': (d) => ({
    subject: `Vous figurez dans le plan de succession de ${d.ownerName}`,
    paragraphs: [
      `${d.ownerName} vous compte parmi les héritiers de son plan de succession. Rien ne vous est demandé pour l’instant.`,
      `Votre code personnel de réclamation est ${d.claimCode}. Conservez-le en lieu sûr et ne le communiquez à personne.`,
      'Le moment venu, vous recevrez un autre message qui vous expliquera la marche à suivre.',
    ],
    action: { label: 'En savoir plus sur votre place dans le plan', href: d.claimLink },
  }),
  'heir-new-code': (d) => ({
    subject: `Un nouveau code pour votre part du plan de ${d.ownerName}`,
    paragraphs: [
      `${d.ownerName} a attribué un nouveau code de réclamation à votre part de son plan. L’ancien code ne fonctionne plus\u00a0: vous ne pourrez donc plus lire cette part avant de l’avoir réclamée de nouveau.`,
      `Votre nouveau code personnel de réclamation est ${d.claimCode}. Réclamez la part avec ce code comme auparavant, et vous continuerez d’y avoir accès. Conservez ce code en lieu sûr et ne le communiquez à personne.`,
    ],
    action: { label: 'Comment réclamer avec votre nouveau code', href: d.claimLink },
  }),
  'share-opened': (d) => ({
    subject: `Un message au sujet du plan de ${d.ownerName}`,
    paragraphs: [
      `Nous vous présentons nos sincères condoléances. Le plan de ${d.ownerName} est désormais ouvert, et votre part est à votre disposition.`,
      'Rien ne presse. Vous pourrez la consulter quand vous le souhaiterez.',
    ],
    action: { label: 'Ouvrir votre part', href: d.link },
  }),
  'share-opened-chain': (d) => ({
    subject: `Une part du plan de ${d.ownerName} est ouverte pour vous`,
    paragraphs: [
      `Le contrat de succession de ${d.ownerName} a été libéré sur la blockchain, ${d.ownerName} n’ayant pas signalé sa présence avant l’échéance prévue. La part de son plan qui vous était réservée est désormais ouverte.`,
      'Ce service ne peut pas savoir pourquoi cette présence n’a pas été signalée. Si vous le pouvez, vous souhaiterez peut-être prendre contact avec cette personne ou avec ses proches.',
      'Rien ne presse. Vous pourrez consulter votre part quand vous le souhaiterez.',
    ],
    action: { label: 'Ouvrir votre part', href: d.link },
  }),
};
