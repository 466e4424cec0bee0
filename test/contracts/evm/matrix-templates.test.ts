import { describe, expect, it } from 'vitest';
import { contractSource } from '../../../src/contracts/evm/contract.js';
import { allShapes, shapeKey, type EvmShape } from '../../../src/contracts/evm/shape.js';
import { TEMPLATE_TYPES } from '../../../src/law/templates.js';
import { defineMatrix, REFERENCE_TEMPLATE } from './matrix.js';

// The templates change what an EVM contract is called and says about itself, never what it does. Each shape of every
// other template is shown to be the reference template's source with only its labels changed (the title and notice
// comments, the contract's name and the TEMPLATE constant), and the reference's every shape is compiled and executed
// (matrix-reference-a/b). So the executed scenario covers every template's code without compiling each label again;
// here each other template's plainest and richest shapes are still compiled and run, which checks the labels on
// chain (TEMPLATE reads back as the template).

const LABEL_LINES: Array<[string, RegExp]> = [
  ['title', /^\/\/\/ @title \w+Inheritance: inheritance contract \([\w.-]+\)$/],
  ['notice', /^\/\/\/ @notice .+$/],
  ['name', /^contract \w+Inheritance \{$/],
  ['constant', /^ {4}string public constant TEMPLATE = "[\w-]+";$/],
];

const others = TEMPLATE_TYPES.filter((t) => t !== REFERENCE_TEMPLATE);
const sameShape = (a: EvmShape, b: EvmShape) => shapeKey({ ...a, template: b.template }) === shapeKey(b);
const flags = (s: EvmShape) => [s.deadMansSwitch, s.gracePeriod, s.guardians, s.erc20, s.erc721];

describe('EVM templates differ from the reference only in their labels', () => {
  const reference = allShapes().filter((s) => s.template === REFERENCE_TEMPLATE);
  it("every template has the reference's shapes", () => {
    expect(others.length).toBeGreaterThanOrEqual(4);
    for (const t of others) {
      const shapes = allShapes().filter((s) => s.template === t);
      expect(shapes.map((s) => shapeKey({ ...s, template: REFERENCE_TEMPLATE })).sort()).toEqual(
        reference.map((s) => shapeKey(s)).sort(),
      );
    }
  });
  for (const template of others) {
    it(`${template}: each shape's source is the reference's with only the four label lines changed`, () => {
      for (const shape of allShapes().filter((s) => s.template === template)) {
        const ref = reference.find((r) => sameShape(r, shape));
        expect(ref, shapeKey(shape)).toBeDefined();
        const a = contractSource(ref!).split('\n');
        const b = contractSource(shape).split('\n');
        expect(b.length, shapeKey(shape)).toBe(a.length);
        const changed = new Set<string>();
        for (let i = 0; i < a.length; i++) {
          if (a[i] === b[i]) continue;
          const label = LABEL_LINES.find(([, re]) => re.test(a[i]!) && re.test(b[i]!));
          expect(label, `${shapeKey(shape)} line ${i + 1}: ${b[i]}`).toBeDefined();
          expect(changed.has(label![0]), `${shapeKey(shape)}: ${label![0]} changed twice`).toBe(false);
          changed.add(label![0]);
        }
        // The name, title and constant always change; the notice only where the templates describe themselves apart.
        for (const must of ['constant', 'name', 'title'])
          expect(changed.has(must), `${shapeKey(shape)}: ${must}`).toBe(true);
        expect(b.join('\n')).toContain(`TEMPLATE = "${template}";`);
      }
    });
  }
});

// The plainest and the richest shape of each other template, compiled and executed like the reference's.
defineMatrix(
  'the plainest and richest shape of each other template',
  allShapes().filter(
    (s) => s.template !== REFERENCE_TEMPLATE && (flags(s).every((f) => !f) || flags(s).every(Boolean)),
  ),
);
