import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { DocumentSequencesRepository, type DocumentKind } from './document-sequences.repository.js';

export type { DocumentKind } from './document-sequences.repository.js';

/**
 * Document numbers `<KIND>-YYYYMMDD-NNNNNN`: the UTC day of issue and a value of the kind's PostgreSQL
 * sequence. nextval never blocks and never returns a value twice, so numbers are unique (per tenant,
 * and in fact across tenants) under any concurrency, without a hot counter row serialising creates.
 * It runs on the caller's transaction connection, so a create never needs a second pool connection.
 * A number taken by a create that fails is not reused (gaps, as with any sequence). NNNNNN is zero-
 * padded to six digits and simply grows past 999999.
 */
export class DocumentNumbers {
  private readonly sequences: DocumentSequencesRepository;

  constructor(db: Database) {
    this.sequences = new DocumentSequencesRepository(db);
  }

  async next(kind: DocumentKind, transaction?: Transaction): Promise<string> {
    const [number] = await this.reserve(kind, 1, transaction);
    return number!;
  }

  /** `count` numbers of one kind in one statement (a bulk batch takes its numbers at once). */
  async reserve(kind: DocumentKind, count: number, transaction?: Transaction): Promise<string[]> {
    if (count <= 0) return [];
    const rows = await this.sequences.next(kind, count, transaction);
    return rows.map((row) => formatNumber(kind, row.day, row.value));
  }
}

export function formatNumber(kind: DocumentKind, day: string, value: string | number): string {
  return `${kind}-${day}-${String(value).padStart(6, '0')}`;
}
