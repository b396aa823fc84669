export { useApi, type Loaded } from './use-api';
export { ErrorNotice } from './ErrorNotice';
export { PageHeader } from './PageHeader';
export { Loading } from './Loading';
export { formatDateTime, formatRelative, formatPercent, formatNumber } from './format';
export { ConfirmButton } from './ConfirmButton';
export { TenantField, tenantLabel, useTenants } from './tenants';
export { Fact, Facts } from './Facts';
export { CopyableValue } from './CopyableValue';
