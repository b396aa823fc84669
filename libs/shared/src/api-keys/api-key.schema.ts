import Joi from 'joi';
import { canonicalOrigin, isIpOrCidr } from './network-rules.js';

/** Admin input of CONTRACT.md section 3; every bad field is named in the 400's details. */
const scopes = Joi.array().items(Joi.string().trim().min(1).max(64)).min(1);

const ipWhitelist = Joi.array().items(
  Joi.string()
    .trim()
    .custom((value: string, helpers) => (isIpOrCidr(value) ? value : helpers.error('ip.invalid')))
    .messages({ 'ip.invalid': '{{#label}} must be an IPv4 or IPv6 address or CIDR range' }),
);

const allowedOrigins = Joi.array().items(
  Joi.string()
    .trim()
    .custom((value: string, helpers) => canonicalOrigin(value) ?? helpers.error('origin.invalid'))
    .messages({ 'origin.invalid': '{{#label}} must be a full origin scheme://host[:port] without a path' }),
);

const expiresAt = Joi.date().iso().greater('now').messages({ 'date.greater': '{{#label}} must be in the future' });

export const createApiKeySchema = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().allow('').max(2000),
  scopes: scopes.required(),
  tenantId: Joi.string().uuid().allow(null),
  expiresAt: expiresAt.allow(null),
  ipWhitelist,
  allowedOrigins,
  rateLimitPerMinute: Joi.number().integer().min(0).max(1_000_000).allow(null),
});

/** The tenant of a key is fixed at creation; revoke and activate have their own operations. */
export const updateApiKeySchema = Joi.object({
  name: Joi.string().trim().min(1).max(200),
  description: Joi.string().allow('').max(2000),
  scopes,
  expiresAt: expiresAt.allow(null),
  ipWhitelist,
  allowedOrigins,
  rateLimitPerMinute: Joi.number().integer().min(0).max(1_000_000).allow(null),
}).min(1);
