import { Joi, LIST_LIMIT_MAX, cursorSchema, decodeCursor } from '@wms/platform';
import { INBOUND_SETS, OUTBOUND_SETS } from './trading-partner.js';

/** The shortest 846 schedule: a partner's stock advice at most every quarter of an hour. */
export const INVENTORY_ADVICE_MIN_MINUTES = 15;
/** The longest: once a week. */
export const INVENTORY_ADVICE_MAX_MINUTES = 7 * 24 * 60;
/** Overdue acknowledgments: from one hour to 30 days. */
export const ACK_OVERDUE_MAX_HOURS = 30 * 24;

/** X12's basic character set for identifiers, without the characters commonly used as separators. */
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9 .,()/&'@#-]*$/;

const qualifier = Joi.string()
  .pattern(/^[A-Z0-9]{2}$/)
  .messages({
    'string.pattern.base': '{{#label}} must be two capital letters or digits (ISA05/ISA07, e.g. ZZ, 01, 12)',
  });
const interchangeId = Joi.string().max(15).pattern(IDENTIFIER).messages({
  'string.max': '{{#label}} is at most 15 characters (ISA06/ISA08; the envelope pads it with spaces)',
  'string.pattern.base':
    "{{#label}} starts with a letter or digit and holds letters, digits, spaces and . , ( ) / & ' @ # -",
});
const groupCode = Joi.string().min(2).max(15).pattern(IDENTIFIER).messages({
  'string.min': '{{#label}} is 2 to 15 characters (GS02/GS03)',
  'string.max': '{{#label}} is 2 to 15 characters (GS02/GS03)',
  'string.pattern.base':
    "{{#label}} starts with a letter or digit and holds letters, digits, spaces and . , ( ) / & ' @ # -",
});

const party = (side: string) =>
  Joi.object({
    qualifier: qualifier.required().description(`ISA qualifier of ${side} (ISA05 or ISA07)`),
    interchangeId: interchangeId.required().description(`ISA interchange ID of ${side} (ISA06 or ISA08)`),
    groupCode: groupCode.required().description(`GS application code of ${side} (GS02 or GS03)`),
  });

const separator = Joi.string()
  .length(1)
  .pattern(/^[!-/:-@[-`{-~]$/)
  .messages({
    'string.length': '{{#label}} is one character',
    'string.pattern.base': '{{#label}} is one printable character that is neither a letter, a digit nor a space',
  });

const separators = Joi.object({
  element: separator.required().description("between elements (the ISA's fourth character)"),
  component: separator.required().description('between components (ISA16)'),
  segment: separator.required().description('after each segment'),
})
  .custom((value: { element: string; component: string; segment: string }, helpers) =>
    new Set([value.element, value.component, value.segment]).size === 3 ? value : helpers.error('separators.distinct'),
  )
  .messages({ 'separators.distinct': '{{#label}} must be three different characters' });

const setList = (sets: readonly string[], way: string) =>
  Joi.array()
    .items(Joi.string().valid(...sets))
    .unique()
    .messages({ 'array.unique': '{{#label}} names a set twice' })
    .description(`the X12 sets ${way} (of ${sets.join(', ')})`);

const shipFrom = Joi.object({
  name: Joi.string().trim().min(1).max(60).required().description('N102'),
  qualifier: Joi.string()
    .pattern(/^[A-Z0-9]{1,2}$/)
    .description('N103, e.g. 9 (DUNS+4), 92 (assigned by buyer)'),
  code: Joi.string().trim().min(1).max(80).description('N104'),
  address: Joi.string().trim().max(55).description('N301'),
  city: Joi.string().trim().max(30).description('N401'),
  state: Joi.string().trim().max(2).description('N402'),
  postalCode: Joi.string().trim().max(15).description('N403'),
  country: Joi.string().trim().max(3).description('N404'),
})
  .and('qualifier', 'code')
  .description('the ship-from party written into outbound advices (N1*SF)');

/** The fields both create and update take (none required here). */
const partnerFields = {
  name: Joi.string().trim().min(1).max(100).description("the partner's name, as the portal shows it"),
  partner: party('the partner').description("the partner's envelope identifiers: sender of what it sends"),
  us: party('us').description('ours, as this partner knows us'),
  x12Version: Joi.string()
    .valid('004010')
    .messages({ 'any.only': '{{#label}} must be 004010, the version this service reads and writes' })
    .description('GS08'),
  usageIndicator: Joi.string().valid('P', 'T').description('ISA15: P production, T test'),
  separators: separators.description("what we write with; what the partner sends is read with its own ISA's"),
  inboundSets: setList(INBOUND_SETS, 'the partner sends'),
  outboundSets: setList(OUTBOUND_SETS, 'we send'),
  warehouseCode: Joi.string()
    .trim()
    .min(1)
    .max(50)
    .allow(null)
    .description('the warehouse a document without one maps to'),
  shipFrom: shipFrom.allow(null),
  inventoryAdviceMinutes: Joi.number()
    .integer()
    .min(INVENTORY_ADVICE_MIN_MINUTES)
    .max(INVENTORY_ADVICE_MAX_MINUTES)
    .allow(null)
    .description(
      `every how many minutes an 846 is sent (${INVENTORY_ADVICE_MIN_MINUTES} to ${INVENTORY_ADVICE_MAX_MINUTES}); null: on demand only`,
    ),
  ackOverdueHours: Joi.number()
    .integer()
    .min(1)
    .max(ACK_OVERDUE_MAX_HOURS)
    .description('an outbound interchange without a 997 for this long is overdue (default 24)'),
  apiKeyId: Joi.string()
    .guid()
    .allow(null)
    .description("an active API key of the partner's tenant: its POST /edi speaks for this partner"),
  sftpUsername: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9._-]{2,31}$/)
    .messages({
      'string.pattern.base':
        '{{#label}} is 3 to 32 lower-case letters, digits, dots, dashes or underscores, starting with a letter or digit',
    })
    .description("the SFTP account's user name; derived from the name when absent at creation"),
};

export const createPartnerSchema = Joi.object({
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant user'),
  ...partnerFields,
  name: partnerFields.name.required(),
  partner: partnerFields.partner.required(),
  us: partnerFields.us.required(),
}).label('CreateTradingPartner');

export const updatePartnerSchema = Joi.object(partnerFields)
  .min(1)
  .messages({ 'object.min': 'name at least one field to change' })
  .label('UpdateTradingPartner');

export const listPartnersQuerySchema = Joi.object({
  tenantId: Joi.string().guid().description('one tenant, for a cross-tenant user'),
  status: Joi.string().valid('active', 'disabled'),
  limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(100),
  cursor: cursorSchema(decodeCursor).description('X-Next-Cursor of the previous page'),
});

export const addPublicKeySchema = Joi.object({
  publicKey: Joi.string()
    .trim()
    .min(16)
    .max(16_384)
    .required()
    .description('an OpenSSH public key line (ssh-ed25519 AAAA… comment) or a PEM public key'),
}).label('AddSftpPublicKey');
