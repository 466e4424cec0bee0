import { z } from 'zod';
import { JurisdictionSchema } from '../../law/jurisdictions.js';
import { defineTool, READ } from '../define.js';

export const getJurisdiction = defineTool({
  name: 'get_jurisdiction',
  example: { id: 'California' },
  title: 'Get a jurisdiction',
  description:
    'Inheritance law of one jurisdiction: legal system, forced heirship and reserves, spouse rights, community property, intestacy, where ' +
    'Islamic law applies, will formalities, digital-asset law, estate or inheritance tax, recommended templates and sources. Accepts an id ' +
    'or a name in any case, English or its own ("us-ca", "US-CA", "California", "Deutschland", "مصر"); an unknown one answers NOT_FOUND with close matches.',
  domain: 'inheritance',
  scope: 'contracts:read',
  principals: ['key', 'embed'],
  bucket: 'default',
  annotations: READ,
  input: z
    .strictObject({ id: z.string().trim().min(1).max(100).describe('Jurisdiction id or name.') })
    .describe('Which jurisdiction.'),
  output: JurisdictionSchema,
  rest: { method: 'GET', path: '/jurisdictions/:id', shape: 'data', aliases: ['/api/jurisdictions/:id'] },
  handler: (input, ctx) => ctx.jurisdictions.resolve(input.id),
});
