import type { MessageCatalog } from './catalog.js';

export const fr: MessageCatalog = {
  name_required: () => 'Saisissez un nom.',
  address_required: () => 'Saisissez une adresse de portefeuille.',
  percentage_format: () => 'Saisissez un pourcentage comme 30 ou 30,5.',
  percentage_positive: () => 'Une part doit être supérieure à 0 %.',
  percentage_max: (_, f) => `Une part ne peut pas dépasser ${f.percent(100)}.`,
  percentage_decimals: () => 'Deux décimales au plus, par exemple 33,33.',
  percentage_sum: (i, f) =>
    `Les parts totalisent ${f.percent(i.total)}\u00a0; elles doivent totaliser exactement ${f.percent(100)}.`,
  evm_address: () =>
    "Ce n'est pas une adresse de portefeuille\u00a0: elle commence par 0x, suivi de 40 chiffres et lettres de a à f.",
  address_checksum: (i) => `Cette adresse contient une faute de frappe\u00a0: vouliez-vous dire ${i.suggestion}\u00a0?`,
  zero_address: () => "L'adresse zéro n'appartient à personne\u00a0: elle ne peut pas recevoir de part.",
  zero_owner: () => "L'adresse zéro n'appartient à personne\u00a0: elle ne peut pas détenir le patrimoine.",
  zero_guardian: () => "L'adresse zéro n'appartient à personne\u00a0: elle ne peut pas être gardien.",
  owner_is_beneficiary: () => "L'adresse du titulaire ne peut pas être celle d'un bénéficiaire.",
  duplicate_beneficiary: (i, f) => `Le bénéficiaire ${f.number(i.other + 1)} a déjà cette adresse.`,
  whole_number: () => 'Saisissez un nombre entier, par exemple 365.',
  number_min: (i, f) => `Saisissez ${f.number(i.min)} ou plus.`,
  number_max: (i, f) => `Saisissez ${f.number(i.max)} ou moins.`,
  threshold_exceeds: (i, f) => `Ce nombre ne peut pas dépasser le nombre de gardiens (${f.number(i.count)}).`,
  guardian_is_owner: () => 'Le titulaire ne peut pas être gardien de son propre patrimoine.',
  guardian_duplicate: () => 'Ce gardien figure deux fois.',
  no_release: () =>
    'Sans minuterie ni gardiens, personne ne pourrait libérer le patrimoine après votre décès. Activez la minuterie ou ajoutez des gardiens.',
  too_long: (i, f) => `C'est trop long\u00a0: ${f.number(i.max)} caractères au plus.`,
  too_many: (i, f) => `${f.number(i.max)} au plus sont permis.`,
  choose_option: (i, f) => `Choisissez parmi\u00a0: ${f.or(i.options)}.`,
  value_required: () => 'Ce champ est obligatoire.',
  too_few: (i, f) => `Il en faut au moins ${f.number(i.min)}.`,
  too_short: (i, f) => `C'est trop court\u00a0: ${f.number(i.min)} caractères au moins.`,
  number_format: () => 'Saisissez un nombre.',
  boolean_format: () => 'Utilisez true ou false.',
};
