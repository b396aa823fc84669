import { performance } from 'node:perf_hooks';
import {
  AppError,
  Joi,
  VALIDATION_PREFERENCES,
  unitOfWork,
  type Database,
  type Logger,
  type UnitOfWork,
} from '@wms/platform';
import type { IngestHandler, IngestRegistry } from '@wms/ingest';
import type { EntryOutcome } from '@wms/warehouse';
import { InterchangesRepository } from '../interchanges/index.js';
import type { Interchange, InterchangeState } from '../interchanges/index.js';
import { MailboxRepository } from '../mailbox/index.js';
import { PartnersRepository } from '../partners/index.js';
import type { TradingPartner } from '../partners/index.js';
import { INBOUND_SET_MAPPERS, SetUnmappable, errorAt, type FieldSource, type MappedSet } from '../sets/index.js';
import {
  groupStatus,
  write997,
  writeTa1,
  type GroupAcknowledgment,
  type SetAcknowledgment,
  type SetError,
} from '../x12/index.js';
import { InterchangeUnreadable, openInterchange, type ReadSegment } from '../x12/index.js';
import { FUNCTIONAL_ID } from '../x12/index.js';
import { checkEnvelope, type GroupEnvelope } from './envelope-check.js';
import { ediInboundSets, ediInterchangeDuration, ediInterchanges } from './edi.metrics.js';
import { readFunctionalAcknowledgment } from './functional-acknowledgment.js';
import { InboundRepository, type InboundSetRow } from './inbound.repository.js';

/** Sets written per transaction: the bulk path's batch (`createOrders` takes up to 100). */
export const EDI_SET_BATCH = 100;
/** Batches of one group written at once, each its own transaction (a 940 of many orders is many bulk calls). */
export const EDI_BATCHES_IN_FLIGHT = 4;

/** The first interchange of a resend is still being read: the resend waits for its answer (a retry). */
export class CanonicalStillReading extends Error {
  override name = 'CanonicalStillReading';
}

/** One set read whole (ST to SE) and checked, waiting for its batch. */
interface PendingSet {
  functionalId: string;
  groupControl: string;
  code: string;
  control: string;
  /** The mapped entry and the API's validation of it; null when the set was refused before. */
  mapped: MappedSet | null;
  value: unknown;
  errors: SetError[];
  codes: string[];
}

/** One group being read: its envelope and the answers of its sets so far. */
interface GroupReading {
  envelope: GroupEnvelope;
  sets: SetAcknowledgment[];
}

const ENTITY_KIND: Record<MappedSet['entity'], { kind: string; ref: string }> = {
  orders: { kind: 'order', ref: 'referenceNo' },
  asn: { kind: 'asn', ref: 'asnNo' },
};

/** A field path of the API's validation (`lines[2].sku`) as the mapping's (`lines.2.sku`). */
const fieldPath = (path: string) => path.replace(/\[(\d+)\]/g, '.$1');

/** Where a field the API refused came from: the field, else its nearest parent, else the set's header. */
function sourceOf(mapped: MappedSet, path: string): FieldSource {
  const parts = fieldPath(path).split('.');
  for (let length = parts.length; length > 0; length -= 1) {
    const found = mapped.fields.get(parts.slice(0, length).join('.'));
    if (found) return found;
  }
  return mapped.header;
}

/** AK403 for a joi error type: 1 missing, 4 too short, 5 too long, 8 a bad date, 7 any other bad value. */
function elementCode(type: string, value: string | undefined): string {
  if (type === 'any.required' || value === '' || value === undefined) return '1';
  if (type.endsWith('.max')) return '5';
  if (type.endsWith('.min')) return '4';
  if (type.startsWith('date') || type.includes('pattern')) return '8';
  return '7';
}

/**
 * The inbound engine (ADR 0207, "The engine"): reads one stored inbound interchange on the ingest worker and
 * writes what it holds through the same services and batches as the bulk path, exactly once:
 *
 * 1. the envelopes first, streamed (envelope-check.ts): an interchange that cannot be read creates nothing
 *    and is answered by a TA1; a group whose GS/GE is broken is rejected in the 997 (AK9);
 * 2. the partner's ISA13 is claimed (unique index): a resend is `duplicate` and answered by the first one's
 *    997, the same bytes;
 * 3. the sets, streamed again: each one mapped to the API's entry, validated with the API's joi schema, and
 *    written with up to 99 others in one transaction together with their `edi_transaction_sets` rows, so a
 *    restart after a crash skips the sets written (a set accepted before, in any interchange, is not written
 *    again and is acknowledged as before);
 * 4. the 997 (one set per group; none for a group of 997s, which marks our outbound sets instead), stored as
 *    an outbound interchange with its file in out/, the interchange's state and the in/ file archived, in
 *    one transaction.
 */
export class InboundEngine {
  private readonly interchanges: InterchangesRepository;
  private readonly partners: PartnersRepository;
  private readonly mailbox: MailboxRepository;
  private readonly inbound: InboundRepository;

  constructor(
    private readonly db: Database,
    private readonly registry: IngestRegistry,
    private readonly logger: Logger,
  ) {
    this.interchanges = new InterchangesRepository(db);
    this.partners = new PartnersRepository(db);
    this.mailbox = new MailboxRepository(db);
    this.inbound = new InboundRepository(db);
  }

  /** Reads one inbound interchange to its end state; null when it was read already. */
  async process(interchangeId: string): Promise<InterchangeState | null> {
    const started = performance.now();
    const interchange = await this.inbound.start(interchangeId);
    if (!interchange) return null;
    const partner = await this.partners.find(interchange.partnerId);
    const raw = await this.interchanges.raw(interchangeId);
    if (!partner || !raw) throw new Error(`interchange ${interchangeId} lost its partner or its bytes`);
    const state = await this.read(interchange, partner, raw);
    ediInterchanges.inc({ direction: 'in', state });
    ediInterchangeDuration.observe((performance.now() - started) / 1000);
    this.logger.info({ interchangeId, partnerId: partner.id, state }, 'EDI interchange read');
    return state;
  }

  private async read(interchange: Interchange, partner: TradingPartner, raw: Buffer): Promise<InterchangeState> {
    let envelope;
    try {
      envelope = await checkEnvelope(raw, partner);
    } catch (error) {
      if (!(error instanceof InterchangeUnreadable)) throw error;
      return this.unreadable(interchange, partner, raw, error);
    }
    if (!(await this.inbound.claimControl(interchange.id, envelope.isa.control)))
      return this.duplicate(interchange, partner, envelope.isa.control);

    const groups: GroupAcknowledgment[] = [];
    const setCodes = new Set<string>();
    let accepted = 0;
    let rejected = 0;
    let index = -1;
    let reading: GroupReading | null = null;
    let pending: PendingSet[] = [];
    let set: { st: ReadSegment; body: ReadSegment[] } | null = null;
    // A group's batches are written up to EDI_BATCHES_IN_FLIGHT at a time, each in its own transaction, as
    // several bulk calls are; their answers are kept in the group's order. Memory stays bounded by the
    // batches in flight.
    let inFlight: Array<Promise<SetAcknowledgment[]>> = [];
    const flush = async () => {
      if (!pending.length || !reading) return;
      const writing = this.writeBatch(interchange, partner, pending);
      writing.catch(() => undefined); // handled where it is awaited, in order
      inFlight.push(writing);
      pending = [];
      if (inFlight.length >= EDI_BATCHES_IN_FLIGHT) reading.sets.push(...(await inFlight.shift()!));
    };
    const settle = async () => {
      const written = await Promise.allSettled(inFlight);
      inFlight = [];
      for (const outcome of written) if (outcome.status === 'rejected') throw outcome.reason;
      for (const outcome of written) if (outcome.status === 'fulfilled') reading!.sets.push(...outcome.value);
    };

    const readSegments = async (): Promise<void> => {
      for await (const segment of openInterchange(raw).segments) {
        switch (segment.id) {
          case 'GS':
            index += 1;
            reading = { envelope: envelope.groups[index]!, sets: [] };
            break;
          case 'ST':
            if (reading && !reading.envelope.codes.length) {
              if (set) pending.push(this.checkedSet(reading.envelope, partner, set, null));
              set = { st: segment, body: [] };
            }
            break;
          case 'SE':
            if (set && reading) {
              pending.push(this.checkedSet(reading.envelope, partner, set, segment));
              set = null;
              if (pending.length >= EDI_SET_BATCH) await flush();
            }
            break;
          case 'GE': {
            if (!reading) break;
            if (set) pending.push(this.checkedSet(reading.envelope, partner, set, null));
            set = null;
            await flush();
            await settle();
            const answer = this.groupAnswer(reading);
            for (const done of reading.sets) {
              setCodes.add(done.code);
              if (done.status === 'R') rejected += 1;
              else accepted += 1;
            }
            if (reading.envelope.codes.length) rejected += reading.envelope.received;
            // A group of 997s is never answered by a 997.
            if (reading.envelope.functionalId !== 'FA') groups.push(answer);
            reading = null;
            break;
          }
          default:
            if (set) {
              set.body.push({ ...segment, position: segment.position - set.st.position + 1 });
            }
        }
      }
    };

    try {
      await readSegments();
    } catch (error) {
      // A batch that failed (or a read that broke off) is reported once the others in flight have ended:
      // until then their transactions may still commit, and a retry must find what they wrote.
      await Promise.allSettled(inFlight);
      throw error;
    }

    const state: InterchangeState =
      accepted === 0 && rejected > 0 ? 'rejected' : rejected > 0 ? 'partially_accepted' : 'accepted';
    const problems = groups.flatMap((group) =>
      group.codes.length ? [`group ${group.control}: AK9 ${group.codes.join(',')}`] : [],
    );
    await this.end(interchange, partner, {
      state,
      error: problems.length ? problems.join('; ') : null,
      setCodes: [...setCodes],
      acknowledgment: groups.length
        ? (control) => ({
            text: write997(partner, control, groups),
            code: '997',
            name: `997_${pad9(control.interchange)}.x12`,
          })
        : null,
    });
    return state;
  }

  /** A set read whole (or cut off: no SE), its ST/SE checked, mapped and validated. */
  private checkedSet(
    group: GroupEnvelope,
    partner: TradingPartner,
    set: { st: ReadSegment; body: ReadSegment[] },
    se: ReadSegment | null,
  ): PendingSet {
    const [code = '', control = ''] = set.st.elements;
    const base = { functionalId: group.functionalId, groupControl: group.control, code, control };
    const refused = (codes: string[], errors: SetError[]): PendingSet => ({
      ...base,
      mapped: null,
      value: null,
      errors,
      codes,
    });
    if (!se)
      return refused(
        ['2'],
        [{ segment: 'SE', position: set.body.length + 2, code: '3', message: 'the set has no SE' }],
      );
    const [count = '', trailerControl = ''] = se.elements;
    if (trailerControl !== control)
      return refused(
        ['3'],
        [
          {
            segment: 'SE',
            position: set.body.length + 2,
            code: '8',
            element: { position: 2, reference: '329', code: '7', value: trailerControl },
            message: `SE02 ${trailerControl} is not ST02 ${control}`,
          },
        ],
      );
    if (count !== String(set.body.length + 2))
      return refused(
        ['4'],
        [
          {
            segment: 'SE',
            position: set.body.length + 2,
            code: '8',
            element: { position: 1, reference: '96', code: '7', value: count },
            message: `SE01 ${count} does not count the set's ${set.body.length + 2} segments`,
          },
        ],
      );
    if (FUNCTIONAL_ID[code] !== group.functionalId || !partner.inboundSets.includes(code as never))
      return refused(
        ['1'],
        [
          {
            segment: 'ST',
            position: 1,
            code: '8',
            element: { position: 1, reference: '143', code: '7', value: code },
            message: `set ${code} is not read in group ${group.functionalId} from this partner`,
          },
        ],
      );
    if (code === '997') return { ...base, mapped: null, value: set.body, errors: [], codes: [] };
    const mapper = INBOUND_SET_MAPPERS[code]!;
    let mapped: MappedSet;
    try {
      mapped = mapper(set.body, partner);
    } catch (error) {
      if (error instanceof SetUnmappable) return refused(['5'], error.errors);
      throw error;
    }
    const handler = this.handlerOf(mapped.entity);
    const result = (handler.entrySchema as Joi.ObjectSchema).validate(mapped.entry, VALIDATION_PREFERENCES);
    if (result.error) {
      const errors = result.error.details.map((detail) => {
        const source = sourceOf(mapped, detail.path.join('.'));
        return errorAt(source, elementCode(detail.type, source.value), detail.message);
      });
      return { ...base, mapped, value: null, errors, codes: ['5'] };
    }
    return { ...base, mapped, value: result.value, errors: [], codes: [] };
  }

  private handlerOf(entity: MappedSet['entity']): IngestHandler {
    const handler = this.registry.get(entity);
    if (!handler) throw new Error(`the ingest registry has no ${entity} handler`);
    return handler;
  }

  /**
   * Writes one batch of sets of one group with their rows, in one transaction: sets accepted before are
   * answered as then; valid entries go through the bulk path's service call; a 997 marks our outbound sets.
   */
  private async writeBatch(
    interchange: Interchange,
    partner: TradingPartner,
    batch: PendingSet[],
  ): Promise<SetAcknowledgment[]> {
    const existing = await this.inbound.existingSets(partner.id, batch.map(keyOf));
    const before = new Map(existing.filter((row) => row.state === 'accepted').map((row) => [keyString(row), row]));
    return unitOfWork(this.db, async (transaction) => {
      const answers: SetAcknowledgment[] = new Array(batch.length);
      const rows: InboundSetRow[] = [];
      const writes: Array<{ index: number; pending: PendingSet }> = [];
      const seen = new Set<string>();
      batch.forEach((pending, index) => {
        const key = keyString(keyOf(pending));
        const earlier = before.get(key);
        const repeated = seen.has(key);
        seen.add(key);
        if (repeated) {
          const errors = [
            {
              segment: 'ST',
              position: 1,
              code: '8',
              element: { position: 2, reference: '329', code: '7', value: pending.control },
              message: `ST02 ${pending.control} repeats a set of this group`,
            },
          ];
          answers[index] = this.rejectedAnswer(pending, ['7'], errors);
        } else if (earlier) {
          ediInboundSets.inc({ set: pending.code, outcome: 'repeated' });
          answers[index] = { code: pending.code, control: pending.control, status: 'A', codes: [], errors: [] };
        } else if (pending.codes.length) {
          answers[index] = this.rejectedAnswer(pending, pending.codes, pending.errors);
          rows.push(rowOf(pending, 'rejected', pending.errors, null));
        } else writes.push({ index, pending });
      });
      const documents = writes.filter(({ pending }) => pending.mapped);
      if (documents.length) {
        const handler = this.handlerOf(documents[0]!.pending.mapped!.entity);
        const outcomes: EntryOutcome[] = await handler.writeBatch(
          { tenantId: interchange.tenantId, transaction },
          documents.map(({ pending }) => pending.value),
        );
        documents.forEach(({ index, pending }, position) => {
          const outcome = outcomes[position]!;
          const { kind, ref } = ENTITY_KIND[pending.mapped!.entity];
          if (outcome.ok) {
            ediInboundSets.inc({ set: pending.code, outcome: 'accepted' });
            answers[index] = { code: pending.code, control: pending.control, status: 'A', codes: [], errors: [] };
            rows.push({
              ...rowOf(pending, 'accepted', [], kind),
              documentRef: String(outcome.data[ref] ?? outcome.data.id),
            });
          } else {
            const errors = this.refusalErrors(pending.mapped!, outcome.error);
            answers[index] = this.rejectedAnswer(pending, ['5'], errors);
            rows.push(rowOf(pending, 'rejected', errors, kind));
          }
        });
      }
      for (const { index, pending } of writes.filter(({ pending }) => !pending.mapped)) {
        await readFunctionalAcknowledgment(
          this.inbound,
          partner,
          interchange,
          pending.value as ReadSegment[],
          transaction,
        );
        ediInboundSets.inc({ set: '997', outcome: 'accepted' });
        answers[index] = { code: pending.code, control: pending.control, status: 'A', codes: [], errors: [] };
        rows.push(rowOf(pending, 'accepted', [], 'acknowledgment'));
      }
      await this.inbound.recordSets(interchange, rows, transaction);
      return answers;
    });
  }

  private rejectedAnswer(pending: PendingSet, codes: string[], errors: SetError[]): SetAcknowledgment {
    ediInboundSets.inc({ set: pending.code || 'unknown', outcome: 'rejected' });
    return { code: pending.code, control: pending.control, status: 'R', codes, errors };
  }

  /** A refusal of the service (DUPLICATE_REFERENCE, REFERENCE_NOT_FOUND, line rules) as AK3/AK4 errors. */
  private refusalErrors(mapped: MappedSet, error: AppError): SetError[] {
    const details = error.details?.length
      ? error.details
      : [{ path: refusedField(mapped, error), message: error.message }];
    return details.map((detail) => {
      const source = detail.path ? sourceOf(mapped, detail.path) : mapped.header;
      return errorAt(source, '7', `${error.code}: ${detail.message}`);
    });
  }

  private groupAnswer(reading: GroupReading): GroupAcknowledgment {
    const { envelope, sets } = reading;
    if (envelope.codes.length)
      return {
        functionalId: envelope.functionalId,
        control: envelope.control,
        status: 'R',
        included: envelope.included,
        received: envelope.received,
        accepted: 0,
        codes: [...new Set(envelope.codes)],
        sets: [],
      };
    const accepted = sets.filter((set) => set.status !== 'R').length;
    return {
      functionalId: envelope.functionalId,
      control: envelope.control,
      status: groupStatus(sets),
      included: envelope.included,
      received: envelope.received,
      accepted,
      codes: [],
      sets,
    };
  }

  /** An interchange that cannot be read: a TA1, nothing else (its sets are never looked at). */
  private async unreadable(
    interchange: Interchange,
    partner: TradingPartner,
    raw: Buffer,
    error: InterchangeUnreadable,
  ): Promise<InterchangeState> {
    const head = raw.subarray(0, 200).toString('latin1');
    const isaAt = head.indexOf('ISA');
    const date = isaAt >= 0 ? head.slice(isaAt + 70, isaAt + 76) : null;
    const time = isaAt >= 0 ? head.slice(isaAt + 77, isaAt + 81) : null;
    await this.end(interchange, partner, {
      state: 'unreadable',
      error: `TA1 ${error.code}: ${error.message}`,
      setCodes: [],
      acknowledgment: (control) => ({
        text: writeTa1(partner, control.interchange, { control: error.control, date, time }, error.code),
        code: 'TA1',
        name: `TA1_${pad9(control.interchange)}.x12`,
      }),
    });
    return 'unreadable';
  }

  /** A resend of an interchange read before: nothing new, answered by the first one's acknowledgment. */
  private async duplicate(
    interchange: Interchange,
    partner: TradingPartner,
    control: string,
  ): Promise<InterchangeState> {
    const first = await this.inbound.canonical(partner.id, control);
    if (!first) throw new CanonicalStillReading(`the interchange holding ISA13 ${control} is gone; read again`);
    if (first.state === 'received' || first.state === 'processing')
      throw new CanonicalStillReading(`interchange ${first.id} (ISA13 ${control}) is still being read`);
    await unitOfWork(this.db, async (transaction) => {
      if (!(await this.stillProcessing(interchange.id, transaction))) return;
      if (first.acknowledgmentId) {
        const answer = await this.interchanges.find(first.acknowledgmentId, transaction);
        // The same 997 (the same bytes) answers the resend; its file is put back in out/ if it was taken.
        if (answer?.fileName)
          await this.mailbox.put(
            { partnerId: partner.id, folder: 'out', name: answer.fileName, interchangeId: answer.id },
            transaction,
          );
      }
      await this.inbound.finish(
        interchange.id,
        {
          state: 'duplicate',
          error: `a resend of interchange ${first.id} (ISA13 ${control})`,
          setCodes: first.setCodes,
          acknowledgmentId: first.acknowledgmentId,
          duplicateOf: first.id,
        },
        transaction,
      );
      await this.mailbox.archiveInterchange(interchange.id, transaction);
    });
    return 'duplicate';
  }

  /** Locks the row: true while it is still being read (another run that finished it first wins). */
  private stillProcessing(interchangeId: string, transaction: UnitOfWork): Promise<boolean> {
    return this.inbound.lockProcessing(interchangeId, transaction);
  }

  /** Stores the acknowledgment (with its file in out/), the interchange's end and the in/ file archived. */
  private async end(
    interchange: Interchange,
    partner: TradingPartner,
    end: {
      state: InterchangeState;
      error: string | null;
      setCodes: string[];
      acknowledgment:
        ((control: { interchange: number; group: number }) => { text: string; code: string; name: string }) | null;
    },
  ): Promise<void> {
    await unitOfWork(this.db, async (transaction) => {
      if (!(await this.stillProcessing(interchange.id, transaction))) return;
      let acknowledgmentId: string | null = null;
      if (end.acknowledgment) {
        const control = await this.partners.takeControlNumbers(partner.id, transaction);
        const written = end.acknowledgment(control);
        const stored = await this.interchanges.insert(
          {
            tenantId: interchange.tenantId,
            partnerId: partner.id,
            direction: 'out',
            source: 'acknowledgment',
            fileName: written.name,
            interchangeControl: pad9(control.interchange),
            setCodes: [written.code],
            raw: Buffer.from(written.text, 'latin1'),
            state: 'sent',
          },
          transaction,
        );
        await this.mailbox.put(
          { partnerId: partner.id, folder: 'out', name: written.name, interchangeId: stored.id },
          transaction,
        );
        acknowledgmentId = stored.id;
      }
      await this.inbound.finish(
        interchange.id,
        { state: end.state, error: end.error, setCodes: end.setCodes, acknowledgmentId },
        transaction,
      );
      await this.mailbox.archiveInterchange(interchange.id, transaction);
    });
  }
}

/** The field a refusal without details names: the reference not found (by its message), or the referenceNo. */
function refusedField(mapped: MappedSet, error: AppError): string {
  if (error.code === 'DUPLICATE_REFERENCE') return 'referenceNo';
  const named = /^(Warehouse code|Partner code|Item SKU) (.+) not found$/.exec(error.message);
  if (!named) return '';
  if (named[1] === 'Warehouse code') return 'warehouseCode';
  if (named[1] === 'Partner code') return mapped.entity === 'orders' ? 'customerCode' : 'supplierCode';
  const lines = (mapped.entry.lines ?? []) as Array<{ sku?: unknown }>;
  const index = lines.findIndex((line) => line.sku === named[2]);
  return index >= 0 ? `lines.${index}.sku` : 'lines';
}

const pad9 = (value: number) => String(value).padStart(9, '0');

const keyOf = (pending: Pick<PendingSet, 'functionalId' | 'groupControl' | 'control'>) => ({
  functionalId: pending.functionalId,
  groupControl: pending.groupControl,
  setControl: pending.control,
});

const keyString = (key: { functionalId: string; groupControl: string; setControl: string }) =>
  `${key.functionalId}/${key.groupControl}/${key.setControl}`;

function rowOf(
  pending: PendingSet,
  state: 'accepted' | 'rejected',
  errors: SetError[],
  documentKind: string | null,
): InboundSetRow {
  return {
    functionalId: pending.functionalId,
    groupControl: pending.groupControl,
    setControl: pending.control,
    setCode: pending.code.slice(0, 3),
    state,
    errors,
    documentKind,
    documentRef: null,
  };
}
