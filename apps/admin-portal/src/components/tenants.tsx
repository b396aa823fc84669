import { Select, TextInput } from '@mantine/core';
import { tenantsApi, type Tenant } from '../api';
import { usePrincipal } from '../auth';
import { useApi } from './use-api';

/** The tenants an admin may pick from; null for everyone else (listing tenants is admin-only). */
export function useTenants(): Tenant[] | null {
  const principal = usePrincipal();
  const isAdmin = principal.role === 'admin';
  const { data } = useApi(['tenants', isAdmin], () => (isAdmin ? tenantsApi.list() : Promise.resolve(null)));
  return data ?? null;
}

/** A tenant as people know it: its code when known, else the start of its id; null is every tenant. */
export function tenantLabel(tenantId: string | null, tenants: Tenant[] | null, none = 'All tenants'): string {
  if (!tenantId) return none;
  return tenants?.find((tenant) => tenant.id === tenantId)?.code ?? `${tenantId.slice(0, 8)}…`;
}

/**
 * The tenant a new record is bound to: a tenant-bound user's own (shown, not editable), a list for an
 * admin, or a typed id for a cross-tenant user who may not list tenants. Empty means every tenant.
 */
export function TenantField(props: {
  value: string;
  onChange: (tenantId: string) => void;
  tenants: Tenant[] | null;
  description?: string;
  noneLabel?: string;
}) {
  const principal = usePrincipal();
  const noneLabel = props.noneLabel ?? 'All tenants';
  if (principal.tenantId) {
    return (
      <TextInput
        label="Tenant"
        value={tenantLabel(principal.tenantId, props.tenants)}
        readOnly
        description="Your own"
      />
    );
  }
  if (props.tenants) {
    return (
      <Select
        label="Tenant"
        description={props.description}
        data={[
          { value: '', label: noneLabel },
          ...props.tenants.map((tenant) => ({ value: tenant.id, label: `${tenant.code} — ${tenant.name}` })),
        ]}
        value={props.value}
        onChange={(value) => props.onChange(value ?? '')}
        allowDeselect={false}
      />
    );
  }
  return (
    <TextInput
      label="Tenant id"
      description={`${props.description ? `${props.description}. ` : ''}Leave empty for ${noneLabel.toLowerCase()}`}
      value={props.value}
      onChange={(event) => props.onChange(event.currentTarget.value.trim())}
    />
  );
}
