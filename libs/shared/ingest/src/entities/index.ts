export { INGEST_ENTITIES, createIngestRegistry, type IngestEntity } from './ingest-entities.js';
export { masterDataIngestHandlers, locationKey, MASTER_DATA_BULK_LIMIT } from './master-data.ingest.js';
export { asnIngestHandler, DOCUMENT_BULK_LIMIT } from './asn.ingest.js';
export { orderIngestHandler, ORDER_BULK_LIMIT } from './orders.ingest.js';
export { returnIngestHandler } from './returns.ingest.js';
