import type { AsmDecl } from './func-model.js';

/**
 * The FunC standard-library primitives the inheritance contract uses, declared
 * here (func-js ships no stdlib.fc). Written against FunC 0.4.6: its built-ins
 * (`null?`, `muldiv`, `load_uint`, `store_uint`, `throw_*`, ...)
 * must not be redeclared, so only TVM primitives that are not built in appear.
 */
const p = (type: string, name: string) => ({ type, name });

export const STDLIB: Record<string, AsmDecl> = {
  now: { returnType: 'int', name: 'now', params: [], asm: '"NOW"' },
  min: { returnType: 'int', name: 'min', params: [p('int', 'x'), p('int', 'y')], asm: '"MIN"' },
  max: { returnType: 'int', name: 'max', params: [p('int', 'x'), p('int', 'y')], asm: '"MAX"' },
  my_balance: { returnType: 'int', name: 'my_balance', params: [], asm: '"BALANCE" "FIRST"' },
  my_address: { returnType: 'slice', name: 'my_address', params: [], asm: '"MYADDR"' },
  cell_hash: { returnType: 'int', name: 'cell_hash', params: [p('cell', 'c')], asm: '"HASHCU"' },
  get_data: { returnType: 'cell', name: 'get_data', params: [], asm: '"c4 PUSH"' },
  set_data: { returnType: '()', name: 'set_data', params: [p('cell', 'c')], specifiers: ['impure'], asm: '"c4 POP"' },
  begin_cell: { returnType: 'builder', name: 'begin_cell', params: [], asm: '"NEWC"' },
  end_cell: { returnType: 'cell', name: 'end_cell', params: [p('builder', 'b')], asm: '"ENDC"' },
  begin_parse: { returnType: 'slice', name: 'begin_parse', params: [p('cell', 'c')], asm: '"CTOS"' },
  end_parse: { returnType: '()', name: 'end_parse', params: [p('slice', 's')], specifiers: ['impure'], asm: '"ENDS"' },
  store_ref: {
    returnType: 'builder',
    name: 'store_ref',
    params: [p('builder', 'b'), p('cell', 'c')],
    asm: '(c b) "STREF"',
  },
  store_slice: {
    returnType: 'builder',
    name: 'store_slice',
    params: [p('builder', 'b'), p('slice', 's')],
    asm: '"STSLICER"',
  },
  store_coins: {
    returnType: 'builder',
    name: 'store_coins',
    params: [p('builder', 'b'), p('int', 'x')],
    asm: '"STVARUINT16"',
  },
  store_dict: {
    returnType: 'builder',
    name: 'store_dict',
    params: [p('builder', 'b'), p('cell', 'c')],
    asm: '(c b) "STDICT"',
  },
  load_ref: { returnType: '(slice, cell)', name: 'load_ref', params: [p('slice', 's')], asm: '( -> 1 0) "LDREF"' },
  load_msg_addr: {
    returnType: '(slice, slice)',
    name: 'load_msg_addr',
    params: [p('slice', 's')],
    asm: '( -> 1 0) "LDMSGADDR"',
  },
  load_coins: {
    returnType: '(slice, int)',
    name: 'load_coins',
    params: [p('slice', 's')],
    asm: '( -> 1 0) "LDVARUINT16"',
  },
  load_dict: { returnType: '(slice, cell)', name: 'load_dict', params: [p('slice', 's')], asm: '( -> 1 0) "LDDICT"' },
  skip_bits: {
    returnType: '(slice, ())',
    name: '~skip_bits',
    params: [p('slice', 's'), p('int', 'len')],
    asm: '"SDSKIPFIRST"',
  },
  slice_bits: { returnType: 'int', name: 'slice_bits', params: [p('slice', 's')], asm: '"SBITS"' },
  equal_slices: { returnType: 'int', name: 'equal_slices', params: [p('slice', 'a'), p('slice', 'b')], asm: '"SDEQ"' },
  parse_std_addr: {
    returnType: '(int, int)',
    name: 'parse_std_addr',
    params: [p('slice', 's')],
    asm: '"REWRITESTDADDR"',
  },
  new_dict: { returnType: 'cell', name: 'new_dict', params: [], asm: '"NEWDICT"' },
  udict_get: {
    returnType: '(slice, int)',
    name: 'udict_get?',
    params: [p('cell', 'dict'), p('int', 'key_len'), p('int', 'index')],
    asm: '(index dict key_len) "DICTUGET" "NULLSWAPIFNOT"',
  },
  udict_set_builder: {
    returnType: 'cell',
    name: 'udict_set_builder',
    params: [p('cell', 'dict'), p('int', 'key_len'), p('int', 'index'), p('builder', 'value')],
    asm: '(value index dict key_len) "DICTUSETB"',
  },
  udict_delete: {
    returnType: '(cell, int)',
    name: 'udict_delete?',
    params: [p('cell', 'dict'), p('int', 'key_len'), p('int', 'index')],
    asm: '(index dict key_len) "DICTUDEL"',
  },
  send_raw_message: {
    returnType: '()',
    name: 'send_raw_message',
    params: [p('cell', 'msg'), p('int', 'mode')],
    specifiers: ['impure'],
    asm: '"SENDRAWMSG"',
  },
  raw_reserve: {
    returnType: '()',
    name: 'raw_reserve',
    params: [p('int', 'amount'), p('int', 'mode')],
    specifiers: ['impure'],
    asm: '"RAWRESERVE"',
  },
  empty_tuple: { returnType: 'tuple', name: 'empty_tuple', params: [], asm: '"NIL"' },
  tpush: {
    forall: 'forall X ->',
    returnType: '(tuple, ())',
    name: '~tpush',
    params: [p('tuple', 't'), p('X', 'value')],
    asm: '"TPUSH"',
  },
  triple: {
    forall: 'forall X, Y, Z ->',
    returnType: '[X, Y, Z]',
    name: 'triple',
    params: [p('X', 'x'), p('Y', 'y'), p('Z', 'z')],
    asm: '"TRIPLE"',
  },
};

export type StdlibName = keyof typeof STDLIB;

/** The declarations for the given primitives, in the order of the table above. */
export function stdlibFor(names: Iterable<string>): AsmDecl[] {
  const want = new Set(names);
  return Object.entries(STDLIB)
    .filter(([k]) => want.has(k))
    .map(([, v]) => v);
}
