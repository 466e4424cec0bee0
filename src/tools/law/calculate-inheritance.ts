import { calculateFaraid, FaraidInputSchema, FaraidResultSchema } from '../../law/faraid/index.js';
import { defineTool, READ } from '../define.js';

export const calculateInheritance = defineTool({
  name: 'calculate_inheritance',
  example: {
    heirs: { wife: 1, son: 2, daughter: 1, mother: 1 },
    estate: { total: '120000', debts: '20000', bequests: '10000' },
  },
  title: "Calculate Islamic inheritance shares (fara'id)",
  description:
    "Computes the fara'id shares of each heir with exact fractions: fixed shares, residuaries, exclusion (hajb), 'awl, radd and the " +
    "classical special cases. The school is the request's madhhab, else the jurisdiction's recorded school (e.g. Shafi'i for \"my\", " +
    'Hanbali for "sa", Maliki for "ma"), else Hanafi; the answer\'s school member says which and why. The jurisdiction\'s statutes ' +
    "apply too: Egypt's obligatory bequest to the children of predeceased children (predeceasedChildren), Tunisia's radd to daughters " +
    "(art. 143 bis; likewise Iraq, and Indonesia as its Supreme Court reads KHI arts. 181-182), and Egypt's and Syria's grandfather sharing with brothers and sisters (arts. 22, 279) and mushtaraka " +
    '(arts. 10, 267(2)). With an estate, applies funeral costs, debts and bequests (at most one third ' +
    'unless the heirs consent) first. Shares come as fractions, percentages and basis points summing to exactly 10000, with the steps taken. ' +
    'A spouse as the only heir takes everything by radd, or only the fixed share with the rest to the public treasury (spouseRadd; the ' +
    "jurisdiction's practice by default). Use the per-person percentages as beneficiary shares for the islamic-mirth template.",
  domain: 'inheritance',
  scope: 'contracts:read',
  principals: ['key', 'embed'],
  bucket: 'default',
  annotations: READ,
  input: FaraidInputSchema,
  output: FaraidResultSchema,
  rest: { method: 'POST', path: '/inheritance/calculate', shape: 'data' },
  handler: (input, ctx) => calculateFaraid(input, { jurisdictions: ctx.jurisdictions }),
});
