/** English texts. Plain and kind: some readers have just lost someone. */
import type { LanguageFrame, TemplateTexts } from './types.js';

export const EN_FRAME: LanguageFrame = {
  footer: 'This message was sent automatically by your inheritance-planning service. Please do not reply to it.',
  unsubscribe: 'You can stop receiving messages like this one:',
  linkLabel: 'Link',
  colon: ':',
};

export const EN: TemplateTexts = {
  'verify-email': (d) => ({
    subject: 'Please confirm your email address',
    paragraphs: [
      'Thank you for creating an account. Please confirm that this email address is yours.',
      'The link works once and expires in 24 hours. If you did not create an account, you can ignore this message.',
    ],
    action: { label: 'Confirm my email address', href: d.link },
  }),
  'password-reset': (d) => ({
    subject: 'Resetting your password',
    paragraphs: [
      'Someone asked to reset the password of your account. If it was you, choose a new password with the link below.',
      'The link works once and expires in 30 minutes. If you did not ask for this, you can ignore this message: your password stays the same.',
    ],
    action: { label: 'Choose a new password', href: d.link },
  }),
  'email-change-confirm': (d) => ({
    subject: 'Please confirm your new email address',
    paragraphs: [
      `You asked to use ${d.newEmail} for your account. Please confirm the change with the link below.`,
      'If you did not ask for this, you can ignore this message and nothing will change.',
    ],
    action: { label: 'Confirm the new address', href: d.link },
  }),
  'email-change-notice': (d) => ({
    subject: 'The email address of your account was changed',
    paragraphs: [
      `The email address of your account is now ${d.newEmail}. Messages will go to that address from now on.`,
      'If you did not make this change, please contact support straight away.',
    ],
  }),
  'password-changed': (d) => ({
    subject: 'The password of your account was changed',
    paragraphs: [
      'The password of your account has just been changed, and you were signed out everywhere you were signed in.',
      ...(d.workingKeys === '0'
        ? []
        : [
            d.workingKeys === undefined
              ? 'The API keys of your account keep working: a new password does not stop them. If you do not recognise one, revoke it.'
              : `API keys of your account that keep working: ${d.workingKeys}. A new password does not stop them; if you do not recognise one, revoke it.`,
          ]),
      'If you did not change it yourself, ask for a new password at once with “Forgot your password?” where you sign in, then check your API keys.',
    ],
  }),
  'checkin-reminder': (d) => ({
    subject: `A reminder to check in: ${d.planLabel}`,
    paragraphs: [
      `Your plan "${d.planLabel}" is waiting for you to check in before ${d.deadline}.`,
      'If you do not check in by then, the plan will start to carry out your wishes. If you are well, a check-in is all that is needed.',
    ],
    action: d.checkInLink ? { label: 'Check in now', href: d.checkInLink } : undefined,
  }),
  'contract-checkin-reminder': (d) => ({
    subject: 'A reminder to check in on your inheritance contract',
    paragraphs: [
      `Your inheritance contract ${d.contractAddress} (network ${d.network}) expects you to check in before ${d.deadline}.`,
      'To check in, send the check-in transaction to the contract from your own wallet, as its README explains. If you do not, your heirs will be able to claim the estate after that date.',
    ],
  }),
  'verification-started': (d) => ({
    subject: `Someone reported a change for your plan: ${d.planLabel}`,
    paragraphs: [
      `A trigger was reported for your plan "${d.planLabel}". A waiting period has started and ends on ${d.endsAt}.`,
      'If you are well and this report is mistaken, you can cancel it before the waiting period ends.',
    ],
    action: d.cancelLink ? { label: 'Cancel this report', href: d.cancelLink } : undefined,
  }),
  'verification-failed': (d) => ({
    subject: `The report about your plan was cancelled: ${d.planLabel}`,
    paragraphs: [
      `You showed that you are well, so the waiting period of your plan "${d.planLabel}" has ended. Nothing was opened.`,
      'If you did not do this yourself, please sign in and check your account.',
    ],
  }),
  'verification-complete': (d) => ({
    subject: `The waiting period of your plan has ended: ${d.planLabel}`,
    paragraphs: [
      `The waiting period of your plan "${d.planLabel}" ended without a sign from you. Shares opened for your heirs: ${d.sharesOpened}.`,
      'If this is a mistake, sign in at once: you can withdraw each share from your account.',
    ],
  }),
  'chain-released': (d) => ({
    subject: `Your inheritance contract was released on chain: ${d.planLabel}`,
    paragraphs: [
      `Your inheritance contract ${d.contractAddress} (network ${d.network}) was released on chain, because no check-in reached it before its deadline.`,
      `Your heirs can now claim the funds on chain. The shares of your plan "${d.planLabel}" opened for them at the same time, with no waiting period: ${d.sharesOpened}.`,
      'If you are well, sign in at once: you can withdraw each share from your account. What the contract released on chain cannot be taken back by this service.',
    ],
  }),
  'heir-invitation': (d) => ({
    subject: `${d.ownerName} has named you in their plan`,
    paragraphs: [
      `${d.ownerName} has named you as an heir in their inheritance plan. Nothing is asked of you now.`,
      `Your personal claim code is ${d.claimCode}. Please keep it safe and do not share it with anyone.`,
      'When the time comes, you will receive another message explaining what to do.',
    ],
    action: { label: 'Read about your place in the plan', href: d.claimLink },
  }),
  'heir-new-code': (d) => ({
    subject: `A new claim code for your share of the plan of ${d.ownerName}`,
    paragraphs: [
      `${d.ownerName} has given your share of their plan a new claim code. The code you had before no longer works, so you cannot read the share until you claim it again.`,
      `Your new personal claim code is ${d.claimCode}. Claim the share with it as you did before, and your access continues. Please keep it safe and do not share it with anyone.`,
    ],
    action: { label: 'How to claim with your new code', href: d.claimLink },
  }),
  'share-opened': (d) => ({
    subject: `A message about the plan of ${d.ownerName}`,
    paragraphs: [
      `We are very sorry for your loss. The plan of ${d.ownerName} has now opened, and your share is ready for you.`,
      'There is no hurry. You can read it whenever you feel ready.',
    ],
    action: { label: 'Open your share', href: d.link },
  }),
  'share-opened-chain': (d) => ({
    subject: `A share of the plan of ${d.ownerName} is open for you`,
    paragraphs: [
      `The inheritance contract of ${d.ownerName} was released on chain after ${d.ownerName} did not check in before its deadline. The share of their plan kept for you is now open.`,
      'This service cannot know why the check-in did not come. If you can, you may wish to get in touch with them or with those close to them.',
      'There is no hurry. You can read it whenever you feel ready.',
    ],
    action: { label: 'Open your share', href: d.link },
  }),
};
