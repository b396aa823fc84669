import { API_VERSIONS, Joi } from '@wms/platform';
import { cursorSchema, decodeCursor, INSTANT_MAX, LIST_LIMIT_MAX } from '@wms/platform';
import { canonicalOrigin, isIpOrCidr } from './network-rules.js';

/** An API key as an admin creates or edits it; every bad field is named in the 400's details. */
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

/** A dated API version the service knows; an unknown one is 400 naming the known ones. */
const apiVersion = Joi.string()
  .valid(...API_VERSIONS)
  .messages({ 'any.only': `{{#label}} must be one of ${API_VERSIONS.join(', ')}` });

const expiresAt = Joi.date().iso().greater('now').max(INSTANT_MAX).messages({
  'date.greater': '{{#label}} must be in the future',
  'date.max': '{{#label}} must be an ISO 8601 time before 9999-12-31',
});

export const createApiKeySchema = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().allow('').max(2000),
  scopes: scopes.required(),
  tenantId: Joi.string().uuid().allow(null),
  expiresAt: expiresAt.allow(null),
  ipWhitelist,
  allowedOrigins,
  rateLimitPerMinute: Joi.number().integer().min(0).max(1_000_000).allow(null),
  apiVersion,
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
  apiVersion,
}).min(1);

/** A roll's grace period for the previous raw key: none by default, at most 7 days. */
export const MAX_ROLL_GRACE_SECONDS = 7 * 24 * 3_600;

export const rollApiKeySchema = Joi.object({
  graceSeconds: Joi.number().integer().min(0).max(MAX_ROLL_GRACE_SECONDS).default(0),
});

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const MAX_EXPIRY_WINDOW_SECONDS = 366 * 24 * 3_600;

/**
 * An ISO 8601 duration of weeks, days, hours, minutes and seconds (`P14D`, `PT12H`, `P1W2D`) in seconds;
 * years and months are refused (their length depends on the date).
 */
export function parseExpiryWindow(value: string, helpers: Joi.CustomHelpers): number | Joi.ErrorReport {
  const match = DURATION.exec(value);
  if (!match || value === 'P' || value.endsWith('T')) return helpers.error('duration.invalid');
  const [weeks, days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const total = (((weeks! * 7 + days!) * 24 + hours!) * 60 + minutes!) * 60 + seconds!;
  if (total <= 0 || total > MAX_EXPIRY_WINDOW_SECONDS) return helpers.error('duration.range');
  return total;
}

export const listApiKeysQuerySchema = Joi.object({
  tenantId: Joi.string().uuid(),
  limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(100),
  cursor: cursorSchema(decodeCursor),
  expiringWithin: Joi.string().custom(parseExpiryWindow).messages({
    'duration.invalid': '{{#label}} must be an ISO 8601 duration such as P14D, PT12H or P1W',
    'duration.range': '{{#label}} must be longer than zero and at most 366 days',
  }),
});
