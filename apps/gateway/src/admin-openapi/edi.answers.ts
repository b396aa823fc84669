import type { PartialSchemaMap } from 'joi';
import { INBOUND_SETS, OUTBOUND_SETS } from '@wms/edi';
import { Joi } from '@wms/platform';

/** The EDI answers of the admin API (trading partners, their SFTP accounts and documents), as answers.ts's. */

const record = (keys: PartialSchemaMap) =>
  Joi.object(
    Object.fromEntries(Object.entries(keys).map(([name, schema]) => [name, (schema as Joi.Schema).required()])),
  ).unknown(true);

const id = Joi.string().guid();
const instant = Joi.string().isoDate();
const count = Joi.number().integer().min(0);

const party = record({
  qualifier: Joi.string().description('ISA05/ISA07'),
  interchangeId: Joi.string().description('ISA06/ISA08, without its padding'),
  groupCode: Joi.string().description('GS02/GS03'),
}).label('EnvelopeParty');

const separators = record({
  element: Joi.string(),
  component: Joi.string().description('ISA16'),
  segment: Joi.string(),
}).label('Separators');

const publicKey = record({
  fingerprint: Joi.string().description('SHA256:… as ssh-keygen -l shows it'),
  type: Joi.string().description('ssh-ed25519, ssh-rsa, ecdsa-sha2-…'),
  comment: Joi.string().allow(''),
}).label('SftpPublicKey');

const shipFrom = Joi.object({
  name: Joi.string(),
  qualifier: Joi.string(),
  code: Joi.string(),
  address: Joi.string(),
  city: Joi.string(),
  state: Joi.string(),
  postalCode: Joi.string(),
  country: Joi.string(),
})
  .allow(null)
  .description('N1*SF of outbound advices');

const interchangeKeys = {
  id,
  tenantId: id,
  partnerId: id,
  direction: Joi.string().valid('in', 'out'),
  source: Joi.string().valid('sftp', 'http', 'event', 'schedule', 'demand', 'acknowledgment', 'resend'),
  fileName: Joi.string().allow(null),
  interchangeControl: Joi.string().allow(null).description('ISA13; null when the ISA could not be read'),
  setCodes: Joi.array().items(Joi.string()).description('940, 945, 997, TA1…'),
  sizeBytes: count,
  state: Joi.string().valid(
    'received',
    'processing',
    'accepted',
    'partially_accepted',
    'rejected',
    'unreadable',
    'duplicate',
    'sent',
    'acknowledged',
    'acknowledged_with_errors',
    'acknowledgment_rejected',
  ),
  error: Joi.string().allow(null),
  duplicateOf: id.allow(null),
  acknowledgmentId: id.allow(null).description("inbound: our 997 or TA1; outbound: the partner's 997"),
  resentFrom: id.allow(null),
  sourceEventId: id.allow(null),
  createdAt: instant,
  processedAt: instant.allow(null),
  acknowledgedAt: instant.allow(null),
};

const documentKeys = {
  ...interchangeKeys,
  overdue: Joi.boolean().description("outbound and still unacknowledged past the partner's ackOverdueHours"),
  setCount: count,
  documents: Joi.array()
    .items(
      record({ kind: Joi.string().allow(null).description('order, asn…'), ref: Joi.string() }).label('EdiDocumentRef'),
    )
    .description('the documents of ours its first sets made or came from'),
};

const setError = Joi.object({
  code: Joi.string(),
  message: Joi.string(),
  segmentId: Joi.string(),
  segmentPosition: Joi.number().integer(),
  elementPosition: Joi.number().integer(),
})
  .unknown(true)
  .label('EdiSetError');

export const EDI_ANSWER_SCHEMAS: Record<string, Joi.Schema> = {
  TradingPartner: record({
    id,
    tenantId: id,
    name: Joi.string(),
    status: Joi.string().valid('active', 'disabled'),
    partner: party,
    us: party,
    x12Version: Joi.string(),
    usageIndicator: Joi.string().valid('P', 'T'),
    separators,
    inboundSets: Joi.array().items(Joi.string().valid(...INBOUND_SETS)),
    outboundSets: Joi.array().items(Joi.string().valid(...OUTBOUND_SETS)),
    warehouseCode: Joi.string().allow(null),
    shipFrom,
    inventoryAdviceMinutes: Joi.number().integer().allow(null).description('null: 846 on demand only'),
    nextInventoryAdviceAt: instant.allow(null),
    ackOverdueHours: Joi.number().integer(),
    apiKeyId: id.allow(null),
    sftpUsername: Joi.string().allow(null),
    sftpPasswordSet: Joi.boolean().description('the password itself is shown once, when it is made'),
    sftpPublicKeys: Joi.array().items(publicKey),
    subscriptionId: id.allow(null).description("the partner's own subscription that turns events into its advices"),
    createdAt: instant,
    updatedAt: instant,
  }),
  SftpPassword: record({
    username: Joi.string(),
    password: Joi.string().description('in this answer only; only its bcrypt hash is stored'),
  }),
  SftpPublicKey: publicKey,
  EdiInterchange: record(interchangeKeys),
  EdiDocument: record(documentKeys),
  EdiDocumentDetail: record({
    ...documentKeys,
    raw: Joi.string().allow('').description('the text as received or written (its first MiB)'),
    rawTruncated: Joi.boolean(),
    separators: separators.allow(null).description('what its own ISA declares (positions 3, 104, 105)'),
    segments: Joi.array().items(
      record({
        position: Joi.number().integer().min(1),
        id: Joi.string().allow(''),
        elements: Joi.array().items(Joi.string().allow('')),
      }).label('EdiSegment'),
    ),
    segmentCount: count,
    parseError: Joi.string().allow(null),
    sets: Joi.array().items(
      record({
        id,
        direction: Joi.string().valid('in', 'out'),
        setCode: Joi.string(),
        functionalId: Joi.string().description('GS01'),
        groupControl: Joi.string().description('GS06'),
        setControl: Joi.string().description('ST02'),
        state: Joi.string(),
        errors: Joi.array().items(setError),
        documentKind: Joi.string().allow(null),
        documentRef: Joi.string().allow(null),
        createdAt: instant,
        acknowledgedAt: instant.allow(null),
      }).label('EdiTransactionSet'),
    ),
    acknowledgment: record({
      id,
      interchangeControl: Joi.string().allow(null),
      setCodes: Joi.array().items(Joi.string()),
      state: Joi.string().description('as EdiDocument.state'),
      createdAt: instant,
    })
      .allow(null)
      .description(
        "its 997 or TA1 (inbound), or the partner's 997 (outbound); the whole document is /documents/{its id}",
      ),
    resends: Joi.array().items(record({ id, state: Joi.string(), createdAt: instant }).label('EdiResend')),
  }),
};
