import type { Database } from '@wms/platform';
import type { DeliveryWork, DocumentDestination } from '@wms/webhooks';
import { PartnersRepository } from '../partners/index.js';
import type { DocumentLookups } from './document-lookups.js';
import { EventDocuments, type DeliveredEvent } from './event-documents.js';
import { OutboundRepository } from './outbound.repository.js';
import { OutboundWriter } from './outbound-writer.js';

/**
 * The webhook worker's sender of `edi` destinations: one delivery of a partner's subscription becomes its
 * advice (944/945/947) in the partner's out/ folder, written once per event however often the attempt runs.
 * An event that is none of the partner's succeeds with a snippet saying so and writes nothing; a failure
 * (PostgreSQL away, the order not readable) throws, and the delivery is retried with backoff like any other.
 */
export class EdiDocumentSender implements DocumentDestination {
  private readonly partners: PartnersRepository;
  private readonly writer: OutboundWriter;
  private readonly documents: EventDocuments;

  constructor(db: Database, lookups: DocumentLookups) {
    this.partners = new PartnersRepository(db);
    this.writer = new OutboundWriter(db);
    this.documents = new EventDocuments(new OutboundRepository(db), lookups);
  }

  async deliver(work: DeliveryWork, body: string): Promise<string> {
    const partnerId = work.destinationSettings?.partnerId;
    const partner = typeof partnerId === 'string' ? await this.partners.find(partnerId) : null;
    if (!partner) return 'no such trading partner: nothing written';
    if (partner.status !== 'active') return 'trading partner disabled: nothing written';
    const event = JSON.parse(body) as DeliveredEvent;
    const outcome = await this.documents.documentOf(partner, event);
    if ('notFor' in outcome) return `not this partner's: ${outcome.notFor}; nothing written`;
    const { interchange, created } = await this.writer.write(partner, {
      source: 'event',
      sourceEventId: event.id,
      documents: [outcome.document],
    });
    return `${created ? 'wrote' : 'written before:'} out/${interchange.fileName} (ISA13 ${interchange.interchangeControl})`;
  }
}
