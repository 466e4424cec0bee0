/** The inheritance templates: legal systems a plan can follow, not labels. Each is checked by src/law. */
export const TEMPLATE_TYPES = ['common-law', 'civil-law', 'islamic-mirth', 'islamic-wasiyyah', 'custom'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];

export interface InheritanceTemplate {
  type: TemplateType;
  name: string;
  description: string;
}

export const TEMPLATES: readonly InheritanceTemplate[] = [
  {
    type: 'common-law',
    name: 'Common law (freedom of testation)',
    description:
      'For owners under English-derived law (England and Wales, most US states, Canada outside Quebec, Australia, Singapore). ' +
      "You choose the beneficiaries and their percentages freely; the plan is checked against a surviving spouse's elective share " +
      'or family-provision claims where the jurisdiction grants them.',
  },
  {
    type: 'civil-law',
    name: 'Civil law (forced heirship)',
    description:
      'For owners under continental or Latin-American law (France, Germany, Spain, Italy, Louisiana and others). ' +
      'Children and, in some countries, the spouse or parents are entitled to a reserved portion; give them at least that ' +
      'and distribute only the disposable portion freely. Plans that cut into a reserve are flagged.',
  },
  {
    type: 'islamic-mirth',
    name: "Islamic inheritance (mirath / fara'id)",
    description:
      "Shares fixed by the Qur'anic rules of fara'id. Give each beneficiary's relationship (husband, wife, son, daughter, " +
      "father, mother, brother, sister...) and the percentages must match the computed shares, including 'awl and radd; " +
      'calculate them first with the inheritance calculator.',
  },
  {
    type: 'islamic-wasiyyah',
    name: 'Islamic bequest (wasiyyah)',
    description:
      "A bequest of at most one third of the net estate to people who are not Qur'anic heirs (or to charity), with the rest " +
      "passing by fara'id. Bequests above one third, or to an heir, are valid only with the other heirs' consent and are flagged.",
  },
  {
    type: 'custom',
    name: 'Custom distribution',
    description:
      'Any split you choose, with percentages that sum to 100 (up to two decimals). No legal system is applied; use it when the ' +
      'assets fall outside the estate (for example assets held in trust) or when you have taken advice on the distribution.',
  },
];
