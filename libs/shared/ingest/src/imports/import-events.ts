import type { Transaction } from 'sequelize';
import { unitOfWork, type Database } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { importErrorsPath } from './import-paths.js';
import type { ImportProgress, ImportsRepository } from './imports.repository.js';

/**
 * `import.completed`: the import ended (completed, failed or cancelled), with its counts and the link to its
 * failed rows, appended in the transaction that ended it, so the event is sent exactly when the state changed.
 */
export async function appendImportEnded(
  events: EventsService,
  transaction: Transaction,
  ended: ImportProgress,
): Promise<void> {
  await events.append(transaction, {
    tenantId: ended.tenantId,
    event: 'import.completed',
    data: {
      importId: ended.id,
      entity: ended.entity,
      state: ended.state as 'completed' | 'failed' | 'cancelled',
      total: ended.total,
      processed: ended.processed,
      created: ended.created,
      updated: ended.updated,
      failed: ended.failed,
      errorsUrl: ended.failed ? importErrorsPath(ended) : null,
    },
  });
}

/**
 * Ends an import that is queued or running (cancelled, or failed with `error`) and appends its
 * `import.completed`, in one unit of work. False when it had finished.
 */
export function endImport(
  db: Database,
  repository: Pick<ImportsRepository, 'end'>,
  events: EventsService,
  end: { id: string; state: 'cancelled' | 'failed'; error?: string },
): Promise<boolean> {
  return unitOfWork(db, async (work) => {
    const ended = await repository.end(end.id, end.state, end.error, work);
    if (ended) await appendImportEnded(events, work, ended);
    return ended !== null;
  });
}
