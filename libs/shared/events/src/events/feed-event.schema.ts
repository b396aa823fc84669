import { Joi } from '@wms/platform';
import { eventCatalogue } from './event-catalogue.js';
import type { EventName } from './event-types.js';

/**
 * One event of the reconciliation feed, the body a webhook delivers: its envelope and the `data` the
 * catalogue declares for its name (the OpenAPI document types each event's data; `webhook.test` goes to one
 * subscription only, never to the feed).
 */
export const feedEventSchema = Joi.alternatives(
  ...(Object.keys(eventCatalogue) as EventName[])
    .filter((name) => name !== 'webhook.test')
    .map((name) =>
      Joi.object({
        id: Joi.string().guid().required().description('event id, equal to webhook-id'),
        event: Joi.valid(name).required(),
        timestamp: Joi.string().isoDate().required().description('when the event occurred'),
        sequence: Joi.number()
          .integer()
          .allow(null)
          .required()
          .description('grows by one with each event of the same document'),
        sandbox: Joi.valid(true).description('present only on events of a sandbox tenant'),
        data: eventCatalogue[name].data.required(),
      }),
    ),
);
