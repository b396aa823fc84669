export { nextTurnSql, turnPriority, type TurnBand, type TurnUnits } from './tenant-turns.js';
export {
  JobDispatcher,
  type DispatchSource,
  type DispatchUnit,
  type DispatcherOptions,
  type QueueEntry,
} from './job-dispatcher.js';
