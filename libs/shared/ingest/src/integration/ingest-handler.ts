import type Joi from 'joi';
import type { EntryOutcome, StatementContext, WriteContext } from '@wms/warehouse';

interface IngestHandlerBase<Entry, Entity extends string> {
  /**
   * Path segment and bulk body field (`items` → POST /items, POST /items/bulk with `{ items: [...] }`), and the
   * job name.
   */
  entity: Entity;
  /** The bulk body's array field when it differs from `entity` (`/asn/bulk` takes `{ asns: [...] }`). */
  bulkField?: string;
  /** The field a document is created under, as the bulk route's description names it; default `referenceNo`. */
  keyField?: string;
  /** Singular name for documentation (`Item`). */
  title: string;
  /** At most this many entries per bulk request; more is refused with 400. */
  maxEntries: number;
  /** Entries written per statement. */
  batchSize: number;
  /** Validates one entry; unknown fields are refused. */
  entrySchema: Joi.ObjectSchema<Entry>;
  /** Schema of the reference a created or updated entry reports (documentation). */
  refSchema: Joi.ObjectSchema;
  /**
   * Schema of a created document as a single write answers it, its inquiry's (documentation); an entity
   * without one answers its reference with `created`.
   */
  documentSchema?: Joi.ObjectSchema;
  /** HTTP status of a successful single write (200 for upserts, 201 for created documents). */
  singleStatus: 200 | 201;
  /** The natural key of an entry, as reported in bulk results; best effort for an invalid entry. */
  keyOf(entry: unknown): string;
  /**
   * When true, a later entry with the same key updates an earlier one of the same batch: the batch
   * is deduplicated before the statement runs (ON CONFLICT cannot touch one row twice in a statement).
   */
  mergeDuplicates: boolean;
}

/**
 * One entity the integration API accepts singly and in bulk (items, partners, locations, ASNs, orders).
 * The gateway's single write and the ingest worker's bulk write both go through it, so both validate
 * with the same schema and write with the same statements.
 *
 * A handler whose batch is written by one statement (reads aside) says so with `singleStatement`: that
 * statement is atomic by itself, so a bulk that fits one batch runs it without BEGIN and COMMIT around
 * it. Any other handler always gets a transaction.
 */
export type IngestHandler<Entry = unknown, Entity extends string = string> = IngestHandlerBase<Entry, Entity> &
  (
    | {
        singleStatement: true;
        /** Writes valid entries in one statement; the answer is aligned with `entries`. */
        writeBatch(context: StatementContext, entries: Entry[]): Promise<EntryOutcome[]>;
      }
    | {
        singleStatement: false;
        /** Writes valid entries in the transaction given; the answer is aligned with `entries`. */
        writeBatch(context: WriteContext, entries: Entry[]): Promise<EntryOutcome[]>;
      }
  );

/**
 * What an entity is, without how its batches are written: its routes, their schemas and the integration API's
 * document read only this, so the document is made without any service or database.
 */
export type IngestEntityDeclaration<Entry = unknown, Entity extends string = string> = IngestHandlerBase<
  Entry,
  Entity
> & { singleStatement: boolean };

/**
 * The entities the integration API knows, by name. `Entity` is the union of the registered handlers'
 * names, inferred from the handlers given, so the names the registry answers are typed by what it holds.
 */
export class IngestRegistry<Entity extends string = string> {
  private readonly handlers = new Map<string, IngestHandler<unknown, Entity>>();

  constructor(handlers: readonly IngestHandler<unknown, Entity>[]) {
    for (const handler of handlers) {
      if (this.handlers.has(handler.entity)) throw new Error(`ingest handler ${handler.entity} registered twice`);
      this.handlers.set(handler.entity, handler);
    }
  }

  get(entity: string): IngestHandler<unknown, Entity> | undefined {
    return this.handlers.get(entity);
  }

  list(): IngestHandler<unknown, Entity>[] {
    return [...this.handlers.values()];
  }
}

/** The names a registry holds. */
export type IngestEntityOf<Registry> = Registry extends IngestRegistry<infer Entity> ? Entity : never;

/** The array field of the handler's bulk body. */
export function bulkFieldOf(handler: Pick<IngestHandler, 'entity' | 'bulkField'>): string {
  return handler.bulkField ?? handler.entity;
}

/** Reads a string field of an entry that may not have passed validation. */
export function stringField(entry: unknown, field: string): string {
  const value = entry && typeof entry === 'object' ? (entry as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}
