/**
 * An English place name as a sentence reads it: "the Netherlands", "the United States", "the District of Columbia"
 * (names from the jurisdictions' records or from Intl.DisplayNames). `thePlace(name, true)` begins a sentence.
 */
const THE =
  /^(Netherlands|Czech Republic|United |European Union|District of |Northern Territory|Northwest Territories|Australian Capital|Abu Dhabi Global|Dubai International)/;

export function thePlace(name: string, start = false): string {
  return THE.test(name) ? `${start ? 'The' : 'the'} ${name}` : name;
}
