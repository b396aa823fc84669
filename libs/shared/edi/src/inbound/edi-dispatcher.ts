import { unitOfWork, type Database, type Logger } from '@wms/platform';
import { JobDispatcher, type DispatchSource } from '@wms/ingest';
import { ediJob, type EdiQueue } from './edi.contract.js';
import type { InboundRepository, QueuedInterchange } from './inbound.repository.js';

export type EdiDispatcher = JobDispatcher<QueuedInterchange, EdiQueue>;

/**
 * Inbound interchanges as the dispatcher's units: one received but never handed to BullMQ (Redis away when it
 * was stored), or left `received`/`processing` by a worker that died, is handed to the `edi` queue again; a
 * job BullMQ gave up on is given another run (reading again is safe: written sets are skipped).
 */
export function ediInterchangeSource(
  db: Database,
  repository: InboundRepository,
): DispatchSource<QueuedInterchange, EdiQueue> {
  return {
    label: 'EDI interchanges',
    dispatch: (limit, staleMs, hand) => unitOfWork(db, (work) => repository.dispatch(limit, staleMs, hand, work)),
    job: ediJob,
    failed: (_unit, retry) => retry(),
  };
}

/** Feeds the `edi` queue from the inbound interchanges (every ingest worker runs one). */
export function createEdiDispatcher(
  db: Database,
  repository: InboundRepository,
  queue: EdiQueue,
  logger: Logger,
): EdiDispatcher {
  return new JobDispatcher(ediInterchangeSource(db, repository), queue, logger, { pollIntervalMs: 2_000 });
}
