import { z } from 'zod';
import { cataloguePageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { EventTypesOutput, listEventTypes } from '../../webhooks/index.js';
import { defineTool, READ } from '../define.js';
import { WEBHOOK_TIERS } from './common.js';

export const listEventTypesTool = defineTool({
  name: 'list_webhook_event_types',
  example: {},
  title: 'List event types',
  description: 'The catalogue of event names that a subscription can receive, marking those no operation emits yet.',
  domain: 'webhooks',
  scope: 'webhooks',
  tiers: WEBHOOK_TIERS,
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ ...cataloguePageInput }).describe('Paging (the whole catalogue by default).'),
  output: EventTypesOutput.extend({ pagination: OffsetPageMetaSchema }).describe('A page of the event catalogue.'),
  rest: { method: 'GET', path: '/webhooks/event-types', shape: 'data', metaFields: ['pagination'] },
  handler: (input) => {
    const all = listEventTypes();
    const page = paginateOffset(all.types, input.page, input.limit);
    return { ...all, types: page.items, pagination: page.pagination };
  },
});
