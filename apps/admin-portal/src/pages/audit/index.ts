export { default } from './AuditPage';
export { AuditTable, ChangesList } from './AuditTable';
