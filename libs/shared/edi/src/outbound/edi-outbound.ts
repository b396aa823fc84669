import { AuditService } from '@wms/identity';
import { AppError, unitOfWork, type Database, type UnitOfWork } from '@wms/platform';
import { DocumentSubscriptions, type SecretBox } from '@wms/webhooks';
import type { EdiOutboundControl } from '../partners/index.js';
import { type Interchange, InterchangesRepository } from '../interchanges/index.js';
import { PartnersRepository, type TradingPartner } from '../partners/index.js';
import type { DocumentLookups } from './document-lookups.js';
import { adviceEventsOf } from './event-documents.js';
import { setBodiesOf } from './interchange-sets.js';
import { inventoryAdviceDocuments } from './inventory-advice.js';
import { OutboundRepository } from './outbound.repository.js';
import { OutboundWriter } from './outbound-writer.js';

/** The dated API version of a partner's subscription: the one whose quantities are exact decimal strings. */
export const EDI_SUBSCRIPTION_API_VERSION = '2026-12-01';

/** Failed deliveries one recover starts again at most. */
const RECOVER_LIMIT = 1_000;

/** The audit log's entity of an EDI interchange (a resend is recorded against the one sent again). */
export const INTERCHANGE_ENTITY = 'edi_interchange';

/**
 * A partner's outbound side (EdiOutboundControl): its own subscription to the events its advices follow,
 * its 846 on demand or on schedule, and an interchange sent again with new control numbers.
 */
export class EdiOutbound implements EdiOutboundControl {
  private readonly subscriptions: DocumentSubscriptions;
  private readonly partners: PartnersRepository;
  private readonly interchanges: InterchangesRepository;
  private readonly outbound: OutboundRepository;
  private readonly writer: OutboundWriter;
  private readonly audit: AuditService;

  constructor(
    private readonly db: Database,
    secrets: SecretBox,
    private readonly lookups: DocumentLookups,
  ) {
    this.subscriptions = new DocumentSubscriptions(db, secrets);
    this.partners = new PartnersRepository(db);
    this.interchanges = new InterchangesRepository(db);
    this.outbound = new OutboundRepository(db);
    this.writer = new OutboundWriter(db);
    this.audit = new AuditService(db);
  }

  /**
   * Makes or changes the partner's subscription to the events of its outbound 944/945/947 (inactive while the
   * partner is disabled), or removes it when it takes none of them; stores its id on the partner.
   */
  async syncSubscription(partner: TradingPartner, transaction: UnitOfWork): Promise<string | null> {
    const id = await this.subscriptions.put(
      partner.subscriptionId,
      {
        tenantId: partner.tenantId,
        url: `edi:partner/${partner.id}`,
        kind: 'edi',
        settings: { partnerId: partner.id },
        events: adviceEventsOf(partner),
        description: `EDI advices of trading partner ${partner.name}`,
        apiVersion: EDI_SUBSCRIPTION_API_VERSION,
        active: partner.status === 'active',
      },
      transaction,
    );
    if (id !== partner.subscriptionId) await this.partners.setSubscription(partner.id, id, transaction);
    return id;
  }

  /** Removes the partner's subscription (before the partner itself is deleted). */
  async removeSubscription(partner: TradingPartner, transaction: UnitOfWork): Promise<void> {
    if (!partner.subscriptionId) return;
    await this.subscriptions.remove(partner.subscriptionId, transaction);
    await this.partners.setSubscription(partner.id, null, transaction);
  }

  /**
   * Delivers again the partner's advices whose deliveries failed since `since` (their attempts used up):
   * the one delivery system's recover, for a subscription the subscriptions API does not show. Resolves with
   * how many were started again; each writes its advice once, as the first run would have.
   */
  async recoverFailed(partner: TradingPartner, since: Date, limit = RECOVER_LIMIT): Promise<number> {
    const subscriptionId = partner.subscriptionId;
    if (!subscriptionId) return 0;
    const ids = await unitOfWork(this.db, (transaction) =>
      this.subscriptions.recover(subscriptionId, since, limit, transaction),
    );
    return ids.length;
  }

  sendInventoryAdvice(partner: TradingPartner): Promise<Interchange> {
    return this.writeInventoryAdvice(partner, 'demand');
  }

  /**
   * Writes the partner's 846 of its tenant's stock now; `schedule` from the sweep (in its transaction, which
   * holds the partner's row), `demand` when asked.
   */
  async writeInventoryAdvice(
    partner: TradingPartner,
    source: 'demand' | 'schedule',
    transaction?: UnitOfWork,
  ): Promise<Interchange> {
    const at = new Date();
    const documents = await inventoryAdviceDocuments(this.lookups, partner, at);
    const write = { source, documents, at };
    const written = transaction
      ? await this.writer.writeIn(partner, write, transaction)
      : await this.writer.write(partner, write);
    return written.interchange;
  }

  /**
   * Sends an outbound interchange again: the same sets under a new ISA13 and GS06, as a new interchange
   * (`resent_from` the one given, source `resend`) and a new file in out/; recorded in the audit log.
   */
  async resend(interchangeId: string, actorId: string | null): Promise<Interchange> {
    const original = await this.interchanges.find(interchangeId);
    if (!original) throw AppError.notFound(`EDI interchange ${interchangeId} not found`);
    if (original.direction !== 'out')
      throw AppError.conflict('EDI_NOT_OUTBOUND', 'Only an interchange we sent can be sent again');
    const partner = (await this.partners.find(original.partnerId))!;
    const bodies = setBodiesOf((await this.interchanges.raw(original.id))!);
    if (bodies.length === 0)
      throw AppError.conflict('EDI_NOT_RESENDABLE', 'This interchange holds no transaction set to send again');
    const sets = await this.outbound.setsOf(original.id);
    const { interchange } = await this.writer.write(partner, {
      source: 'resend',
      sourceEventId: original.sourceEventId,
      resentFrom: original.id,
      documents: bodies.map((set, index) => ({
        set,
        documentKind: sets[index]?.documentKind ?? null,
        documentRef: sets[index]?.documentRef ?? null,
      })),
      alongside: (written, transaction) =>
        this.audit.record(
          {
            action: 'edi.interchange.resent',
            entityType: INTERCHANGE_ENTITY,
            entityId: original.id,
            tenantId: original.tenantId,
            actorUserId: actorId,
            changes: { resentAs: written.id, interchangeControl: written.interchangeControl, file: written.fileName },
          },
          transaction,
        ),
    });
    return interchange;
  }
}
