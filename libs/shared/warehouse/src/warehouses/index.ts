export {
  WarehousesService,
  RECEIVING_LOCATION_CODE,
  DEFAULT_WAREHOUSE_CODE,
  type Warehouse,
} from './warehouses.service.js';
export { createWarehouseSchema, listWarehousesQuerySchema } from './warehouse.schema.js';
export { WarehousesRepository } from './warehouses.repository.js';
