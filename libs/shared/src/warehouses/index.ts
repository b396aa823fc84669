export { WarehousesService, RECEIVING_LOCATION_CODE, type Warehouse } from './warehouses.service.js';
