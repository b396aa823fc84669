import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { toPage, type ListPage } from '@wms/platform';
import { AuditRepository, type AuditEntry, type AuditQuery, type AuditRecordInput } from './audit.repository.js';

export type { AuditEntry, AuditQuery, AuditRecordInput } from './audit.repository.js';

/** Who changed what, written in the same transaction as the change it describes. */
export class AuditService {
  private readonly repository: AuditRepository;

  constructor(db: Database) {
    this.repository = new AuditRepository(db);
  }

  async record(input: AuditRecordInput, transaction?: Transaction): Promise<void> {
    await this.repository.insert(input, transaction);
  }

  /** Newest first, `limit` entries a page; `nextCursor` continues the list, null on the last page. */
  async list(query: AuditQuery): Promise<ListPage<AuditEntry>> {
    // One entry more than the page tells whether another page follows.
    return toPage(await this.repository.list(query, query.limit + 1), query.limit);
  }
}
