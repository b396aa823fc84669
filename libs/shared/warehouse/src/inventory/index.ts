export {
  quantity,
  dateOnly,
  lotNumber,
  tracksLots,
  lotProblem,
  isoSql,
  dateSql,
  qtySql,
  qtyColumnSql,
} from './fields.js';
export { STOCK_INQUIRY_SQL, stockInquirySql } from './stock-inquiry.repository.js';
export {
  StockService,
  stockQuerySchema,
  stockLevelsQuerySchema,
  STOCK_LEVELS_SKUS_MAX,
  type StockQuery,
  type StockLevelsQuery,
  type StockInquiry,
  type StockRowView,
} from './stock.service.js';
export {
  AdjustmentsService,
  adjustmentSchema,
  type AdjustmentInput,
  type AdjustmentView,
} from './adjustments.service.js';
export {
  CycleCountsService,
  cycleCountSchema,
  type CycleCountInput,
  type CycleCountView,
} from './cycle-counts.service.js';
export { adjustmentAnswerSchema, cycleCountAnswerSchema, stockInquirySchema } from './stock.answers.js';
