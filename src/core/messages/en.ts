import type { MessageCatalog } from './catalog.js';

export const en: MessageCatalog = {
  name_required: () => 'Enter a name.',
  address_required: () => 'Enter a wallet address.',
  percentage_format: () => 'Enter a percentage like 30 or 30.5.',
  percentage_positive: () => 'A share must be more than 0%.',
  percentage_max: (_, f) => `A share cannot be more than ${f.percent(100)}.`,
  percentage_decimals: () => 'Use at most two decimals, like 33.33.',
  percentage_sum: (i, f) =>
    `The shares add up to ${f.percent(i.total)}; they must add up to exactly ${f.percent(100)}.`,
  evm_address: () => 'This is not a wallet address: it starts with 0x, followed by 40 digits and letters a to f.',
  address_checksum: (i) => `This address has a typo: did you mean ${i.suggestion}?`,
  zero_address: () => 'The zero address belongs to nobody: it cannot receive a share.',
  zero_owner: () => 'The zero address belongs to nobody: it cannot own the estate.',
  owner_is_beneficiary: () => "The owner's own address cannot be a beneficiary.",
  duplicate_beneficiary: (i, f) => `Beneficiary ${f.number(i.other + 1)} already has this address.`,
  whole_number: () => 'Enter a whole number, like 365.',
  number_min: (i, f) => `Enter ${f.number(i.min)} or more.`,
  number_max: (i, f) => `Enter ${f.number(i.max)} or less.`,
  threshold_exceeds: (i, f) => `This cannot be more than the number of guardians (${f.number(i.count)}).`,
  guardian_is_owner: () => 'The owner cannot be a guardian of their own estate.',
  guardian_duplicate: () => 'This guardian is listed twice.',
  no_release: () =>
    "With the dead man's switch off and no guardians, nobody could release the estate after your death: it would stay locked forever. Turn the switch on or add guardians.",
  too_long: (i, f) => `This is too long: at most ${f.number(i.max)} characters.`,
  too_many: (i, f) => `At most ${f.number(i.max)} are allowed.`,
  choose_option: (i, f) => `Choose one of: ${f.or(i.options)}.`,
  value_required: () => 'This field is required.',
  too_few: (i, f) => `At least ${f.number(i.min)} ${i.min === 1 ? 'is' : 'are'} needed.`,
  too_short: (i, f) => `This is too short: at least ${f.number(i.min)} characters.`,
  number_format: () => 'Enter a number.',
  boolean_format: () => 'Use true or false.',
};
