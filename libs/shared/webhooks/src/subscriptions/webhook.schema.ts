import { API_VERSIONS, Joi } from '@wms/platform';
import { subscribableEventNames } from '@wms/events';
import { cursorSchema, decodeCursor, isoInstantDate, LIST_LIMIT_MAX } from '@wms/platform';
import { filterProblem } from './event-filter.js';
import { destinationSchema } from '../destinations/index.js';

const eventsList = Joi.array()
  .items(Joi.string().valid('*', ...subscribableEventNames))
  .min(1)
  .unique();

const url = Joi.string().trim().max(2048);

/** The most deliveries a subscription is sent per second (null: no limit). */
export const MAX_DELIVERIES_PER_SECOND = 10_000;
const maxRate = Joi.number().integer().min(1).max(MAX_DELIVERIES_PER_SECOND).allow(null);

/** A subscription's filter over the event data (event-filter.ts); null removes it. */
export const filterSchema = Joi.any()
  .custom((value: unknown, helpers) => {
    if (value === null) return value;
    const problem = filterProblem(value);
    return problem ? helpers.error('filter.invalid', { problem: `${problem.path}: ${problem.message}` }) : value;
  })
  .messages({ 'filter.invalid': '{#problem}' });

/** The dated API version of a subscription's bodies; an unknown one is 400 naming the known ones. */
const apiVersion = Joi.string()
  .valid(...API_VERSIONS)
  .messages({ 'any.only': `{{#label}} must be one of ${API_VERSIONS.join(', ')}` });

export const createSubscriptionSchema = Joi.object({
  url,
  destination: destinationSchema,
  events: eventsList.required(),
  tenantId: Joi.string().uuid().allow(null),
  description: Joi.string().trim().max(500).allow(''),
  filter: filterSchema,
  maxDeliveriesPerSecond: maxRate,
  ordered: Joi.boolean(),
  apiVersion,
}).xor('url', 'destination');

const pageKeys = {
  limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(100),
  cursor: cursorSchema(decodeCursor),
};

/** The subscriptions list: a cross-tenant user may narrow it to one tenant; a page at a time. */
export const listSubscriptionsQuerySchema = Joi.object({
  tenantId: Joi.string().uuid(),
  ...pageKeys,
});

export const updateSubscriptionSchema = Joi.object({
  url,
  destination: destinationSchema,
  events: eventsList,
  description: Joi.string().trim().max(500).allow(''),
  active: Joi.boolean(),
  filter: filterSchema,
  maxDeliveriesPerSecond: maxRate,
  ordered: Joi.boolean(),
  apiVersion,
})
  .min(1)
  .oxor('url', 'destination');

/** How many of the tenant's latest events a filter test reads at most. */
export const FILTER_TEST_MAX_EVENTS = 500;

/** Tries a filter on the latest events: of one tenant (a cross-tenant user may name it), optionally of some types. */
export const filterTestSchema = Joi.object({
  filter: filterSchema.required(),
  events: eventsList,
  tenantId: Joi.string().uuid(),
  limit: Joi.number().integer().min(1).max(FILTER_TEST_MAX_EVENTS).default(50),
});

/** The delivery log: newest first, optionally of one status or event, paged by the cursor of the previous page. */
export const listDeliveriesSchema = Joi.object({
  status: Joi.string().valid('pending', 'succeeded', 'failed'),
  event: Joi.string().max(100),
  ...pageKeys,
});

/** How many attempts of one delivery the log shows (the worker makes at most WEBHOOK_MAX_ATTEMPTS a run). */
export const ATTEMPTS_SHOWN = 100;

/** A rotation's grace period: how long the previous secret keeps signing beside the new one. */
export const DEFAULT_SECRET_GRACE_SECONDS = 24 * 3_600;
export const MAX_SECRET_GRACE_SECONDS = 7 * 24 * 3_600;

export const rotateSecretSchema = Joi.object({
  graceSeconds: Joi.number().integer().min(0).max(MAX_SECRET_GRACE_SECONDS).default(DEFAULT_SECRET_GRACE_SECONDS),
});

/** How far back a recover reaches, and how many deliveries one call queues again. */
export const RECOVER_WINDOW_DAYS = 14;
export const RECOVER_MAX_PER_CALL = 1_000;

export const recoverSchema = Joi.object({
  since: isoInstantDate().required(),
  until: isoInstantDate(),
  limit: Joi.number().integer().min(1).max(RECOVER_MAX_PER_CALL).default(RECOVER_MAX_PER_CALL),
});

export const replaySchema = Joi.object({
  eventId: Joi.string().uuid().required(),
});
