import type { MessageCatalog } from './catalog.js';

export const es: MessageCatalog = {
  name_required: () => 'Escriba un nombre.',
  address_required: () => 'Escriba una dirección de billetera.',
  percentage_format: () => 'Escriba un porcentaje como 30 o 30,5.',
  percentage_positive: () => 'Una parte debe ser mayor que 0 %.',
  percentage_max: (_, f) => `Una parte no puede superar el ${f.percent(100)}.`,
  percentage_decimals: () => 'Use como máximo dos decimales, por ejemplo 33,33.',
  percentage_sum: (i, f) => `Las partes suman ${f.percent(i.total)}; deben sumar exactamente ${f.percent(100)}.`,
  evm_address: () =>
    'Esta no es una dirección de billetera: empieza por 0x, seguido de 40 cifras y letras de la a a la f.',
  address_checksum: (i) => `Esta dirección tiene un error: ¿quiso decir ${i.suggestion}?`,
  zero_address: () => 'La dirección cero no es de nadie: no puede recibir una parte.',
  zero_owner: () => 'La dirección cero no es de nadie: no puede ser titular del patrimonio.',
  owner_is_beneficiary: () => 'La dirección del titular no puede ser la de un beneficiario.',
  duplicate_beneficiary: (i, f) => `El beneficiario ${f.number(i.other + 1)} ya tiene esta dirección.`,
  whole_number: () => 'Escriba un número entero, por ejemplo 365.',
  number_min: (i, f) => `Escriba ${f.number(i.min)} o más.`,
  number_max: (i, f) => `Escriba ${f.number(i.max)} o menos.`,
  threshold_exceeds: (i, f) => `No puede ser mayor que el número de guardianes (${f.number(i.count)}).`,
  guardian_is_owner: () => 'El titular no puede ser guardián de su propio patrimonio.',
  guardian_duplicate: () => 'Este guardián aparece dos veces.',
  no_release: () =>
    'Sin temporizador y sin guardianes, nadie podría liberar el patrimonio tras su fallecimiento. Active el temporizador o añada guardianes.',
  too_long: (i, f) => `Es demasiado largo: como máximo ${f.number(i.max)} caracteres.`,
  too_many: (i, f) => `Se permiten como máximo ${f.number(i.max)}.`,
  choose_option: (i, f) => `Elija una de estas opciones: ${f.or(i.options)}.`,
  value_required: () => 'Este campo es obligatorio.',
  too_few: (i, f) => `Se necesita${i.min === 1 ? '' : 'n'} al menos ${f.number(i.min)}.`,
  too_short: (i, f) => `Es demasiado corto: como mínimo ${f.number(i.min)} caracteres.`,
  number_format: () => 'Escriba un número.',
  boolean_format: () => 'Use true o false.',
};
