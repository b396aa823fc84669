export {
  BulkAlreadyWritten,
  type EntryOutcome,
  type EntryRef,
  type StatementContext,
  type WriteContext,
  type WriteGuard,
} from './write-context.js';
