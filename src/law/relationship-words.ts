// The description of a plan's `relationship` field, apart from the word tables it describes (src/law/family-words.ts,
// src/law/islamic/relationships.ts): the plan's schema is loaded where those tables are not needed.

/** What a plan's `relationship` field says, for its schema's description: the languages the checks read. */
export const RELATIONSHIP_WORDS =
  "Relationship to the owner (spouse, son, daughter, father, mother, brother, sister, friend, charity...), in English; the civil-law checks also read French, Spanish, German, Italian, Portuguese, Dutch, Polish, Czech, Slovak, Lithuanian, Latvian, Romanian, Hungarian and Greek words (épouse, hijo, Tochter, żona, syn, σύζυγος...), the fara'id checks French ones too (fils, frère germain...), and both Arabic, Malay, Indonesian and Turkish words and Urdu and Persian ones, in their script or Latin letters (زوجة, istri, anak perempuan, oğul, beti, پسر...).";
