import type { Principal } from '@wms/identity';
import {
  AppError,
  Joi,
  LIST_LIMIT_MAX,
  cursorSchema,
  decodeCursor,
  isUuid,
  toPage,
  unitOfWork,
  validate,
  type Database,
  type ListPage,
} from '@wms/platform';
import type { EdiOutboundControl } from '../partners/index.js';
import type { Interchange } from '../interchanges/index.js';
import type { TradingPartnersService } from '../partners/index.js';
import type { EdiDocument, EdiDocumentDetail, DocumentsQuery } from './document.js';
import { DocumentsRepository } from './documents.repository.js';
import { splitSegments } from './segments.js';

/** What a document's page shows at most: the text's first MiB, its first segments and sets. */
export const RAW_SHOWN_BYTES = 1024 * 1024;
export const SEGMENTS_SHOWN = 2000;
export const SETS_SHOWN = 1000;

const STATES = [
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
] as const;

export const listDocumentsQuerySchema = Joi.object({
  direction: Joi.string().valid('in', 'out'),
  state: Joi.string().valid(...STATES),
  setCode: Joi.string()
    .pattern(/^(\d{3}|TA1)$/)
    .messages({ 'string.pattern.base': '{{#label}} is a set code such as 940, 945, 997 or TA1' }),
  limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(50),
  cursor: cursorSchema(decodeCursor).description('X-Next-Cursor of the previous page'),
});

/** A partner's documents (its interchanges both ways) as people read them, and the actions on them. */
export class EdiDocumentsService {
  private readonly repository: DocumentsRepository;

  constructor(
    private readonly db: Database,
    private readonly partners: TradingPartnersService,
    private readonly outbound: EdiOutboundControl,
  ) {
    this.repository = new DocumentsRepository(db);
  }

  async page(partnerId: string, query: unknown, viewer: { tenantId: string | null }): Promise<ListPage<EdiDocument>> {
    const parsed = validate<DocumentsQuery>(listDocumentsQuerySchema, query, 'Invalid query');
    await this.partners.visible(partnerId, viewer);
    return toPage(await this.repository.page(partnerId, parsed, parsed.limit + 1), parsed.limit);
  }

  async detail(partnerId: string, id: string, viewer: { tenantId: string | null }): Promise<EdiDocumentDetail> {
    const document = await this.find(partnerId, id, viewer);
    const head = (await this.repository.rawHead(id, RAW_SHOWN_BYTES)) ?? Buffer.alloc(0);
    const raw = head.toString('latin1');
    const split = splitSegments(raw, SEGMENTS_SHOWN);
    const acknowledgment = document.acknowledgmentId
      ? await this.repository.find(partnerId, document.acknowledgmentId)
      : null;
    return {
      ...document,
      raw,
      rawTruncated: document.sizeBytes > head.length,
      separators: split.separators,
      segments: split.segments,
      segmentCount: split.segmentCount,
      parseError: split.error,
      sets: await this.repository.sets(id, SETS_SHOWN),
      acknowledgment,
      resends: await this.repository.resends(id),
    };
  }

  /** Writes an outbound interchange again (new control numbers, a new file in out/); 409 for an inbound one. */
  async resend(partnerId: string, id: string, actor: Principal): Promise<Interchange> {
    const document = await this.find(partnerId, id, actor);
    if (document.direction !== 'out') {
      throw AppError.conflict(
        'EDI_RESEND_INBOUND',
        'Only an outbound document can be sent again; this one was received',
      );
    }
    const partner = await this.partners.visible(partnerId, actor);
    if (partner.status !== 'active') {
      throw AppError.conflict(
        'EDI_SENDING_DISABLED',
        'The trading partner is disabled: enable it to send it documents',
      );
    }
    const resent = await this.outbound.resend(id, actor.sub);
    await unitOfWork(this.db, (transaction) =>
      this.partners.record(
        'edi_partner.document_resent',
        partner,
        actor,
        { interchangeId: id, interchangeControl: document.interchangeControl, resentAs: resent.id },
        transaction,
      ),
    );
    return resent;
  }

  /** The partner's 846 now, on demand; 409 when the partner is disabled or is not sent 846s. */
  async sendInventoryAdvice(partnerId: string, actor: Principal): Promise<Interchange> {
    const partner = await this.partners.visible(partnerId, actor);
    if (partner.status !== 'active') {
      throw AppError.conflict(
        'EDI_SENDING_DISABLED',
        'The trading partner is disabled: enable it to send it documents',
      );
    }
    if (!partner.outboundSets.includes('846')) {
      throw AppError.conflict('EDI_SET_NOT_SENT', 'The trading partner is not sent 846s: add 846 to its outbound sets');
    }
    const sent = await this.outbound.sendInventoryAdvice(partner);
    await unitOfWork(this.db, (transaction) =>
      this.partners.record(
        'edi_partner.inventory_advice_sent',
        partner,
        actor,
        { interchangeId: sent.id },
        transaction,
      ),
    );
    return sent;
  }

  private async find(partnerId: string, id: string, viewer: { tenantId: string | null }): Promise<EdiDocument> {
    await this.partners.visible(partnerId, viewer);
    const document = isUuid(id) ? await this.repository.find(partnerId, id) : null;
    if (!document) throw AppError.notFound(`Document ${id} of trading partner ${partnerId} not found`);
    return document;
  }
}
