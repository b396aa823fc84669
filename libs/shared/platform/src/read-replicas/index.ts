export { TenantWrites, openTenantWrites } from './tenant-writes.js';
export { ACROSS_TENANTS } from './write-positions.js';
export { ReadRouting, openReadRouting, replicaName } from './read-routing.js';
export { ReadReplicas, type ReadChoice, type ReadReason, type ReadReplicaSettings } from './read-replicas.js';
export { routedRead, runWithReadRoute, type ReadRoute } from './routed-read.js';
export { replicaLag, type LagSample } from './replica-lag.js';
export { parseLsn } from './lsn.js';
