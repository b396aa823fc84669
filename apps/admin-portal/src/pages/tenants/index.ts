export { default, default as TenantsPage, SandboxBadge } from './TenantsPage';
