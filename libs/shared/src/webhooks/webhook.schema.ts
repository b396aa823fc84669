import Joi from 'joi';
import { businessEventNames } from '../events/index.js';

const eventsList = Joi.array()
  .items(Joi.string().valid('*', ...businessEventNames))
  .min(1)
  .unique();

const url = Joi.string().trim().max(2048);

export const createSubscriptionSchema = Joi.object({
  url: url.required(),
  events: eventsList.required(),
  tenantId: Joi.string().uuid().allow(null),
  description: Joi.string().trim().max(500).allow(''),
});

export const updateSubscriptionSchema = Joi.object({
  url,
  events: eventsList,
  description: Joi.string().trim().max(500).allow(''),
  active: Joi.boolean(),
}).min(1);

export const listDeliveriesSchema = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100),
});
