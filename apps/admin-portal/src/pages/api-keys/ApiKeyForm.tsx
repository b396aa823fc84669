import { Button, Group, NumberInput, Paper, Select, Stack, TagsInput, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { ApiKey, ApiKeyInput, Tenant } from '../../api';
import { ApiVersionSelect } from '../../components';

/** Scopes with a meaning (read, write, admin) and labels integrators often use; any other label may be typed. */
export const SCOPE_SUGGESTIONS = ['read', 'write', 'admin', 'orders', 'inventory', 'asn', 'items', 'partners'];

export interface ApiKeyFormValues {
  name: string;
  description: string;
  scopes: string[];
  tenantId: string;
  expiresAt: string;
  ipWhitelist: string;
  allowedOrigins: string;
  rateLimitPerMinute: number | string;
  /** The dated API version its calls are served in; empty: the deployment's default. */
  apiVersion: string;
}

export function initialValues(key?: ApiKey): ApiKeyFormValues {
  return {
    name: key?.name ?? '',
    description: key?.description ?? '',
    scopes: key?.scopes ?? ['read'],
    tenantId: key?.tenantId ?? '',
    expiresAt: key?.expiresAt ? toLocalInput(key.expiresAt) : '',
    ipWhitelist: key?.ipWhitelist.join('\n') ?? '',
    allowedOrigins: key?.allowedOrigins.join('\n') ?? '',
    rateLimitPerMinute: key?.rateLimitPerMinute || '',
    apiVersion: key?.apiVersion ?? '',
  };
}

/** `datetime-local` works in local time without a zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

export function toInput(values: ApiKeyFormValues): ApiKeyInput {
  const rate = values.rateLimitPerMinute === '' ? null : Number(values.rateLimitPerMinute);
  return {
    name: values.name.trim(),
    description: values.description,
    scopes: values.scopes,
    tenantId: values.tenantId || null,
    expiresAt: values.expiresAt ? new Date(values.expiresAt).toISOString() : null,
    ipWhitelist: lines(values.ipWhitelist),
    allowedOrigins: lines(values.allowedOrigins),
    rateLimitPerMinute: rate === 0 ? null : rate,
    apiVersion: (values.apiVersion || undefined) as ApiKeyInput['apiVersion'],
  };
}

/** What a key of all tenants needs on every call, said where that choice is made (the gateway's 400 says the same). */
const ALL_TENANTS_NEEDS =
  'A key of all tenants must name the tenant on every call: tenantId at the top level of a JSON body, or ?tenantId= on a GET';
const BOUND_KEY = "A key bound to a tenant reads and writes that tenant's data only";

export interface TenantChoice {
  /** Tenants to pick from (admins); null when the user types an id or is bound to one. */
  tenants: Tenant[] | null;
  /** A tenant-bound user's tenant: shown, not editable. */
  fixedTenantId: string | null;
  /** The tenant of an existing key cannot change. */
  locked: boolean;
}

/** Every field of the admin form; labels are real <label>s so each field is reachable by its name. */
export function ApiKeyForm(props: {
  initial: ApiKeyFormValues;
  tenant: TenantChoice;
  submitLabel: string;
  onSubmit: (values: ApiKeyFormValues) => Promise<void>;
  onCancel: () => void;
  error?: ReactNode;
}) {
  const [values, setValues] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof ApiKeyFormValues>(field: K, value: ApiKeyFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit(values);
    } finally {
      setBusy(false);
    }
  };

  const { tenant } = props;
  return (
    <form onSubmit={submit} noValidate>
      <Paper withBorder radius="md" p="lg" maw={720}>
        <Stack gap="md">
          {props.error}
          <TextInput label="Name" required value={values.name} onChange={(e) => set('name', e.currentTarget.value)} />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            value={values.description}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <TagsInput
            label="Scopes"
            description="read, write or admin grant access; labels such as orders or inventory are kept for reference"
            required
            data={SCOPE_SUGGESTIONS}
            value={values.scopes}
            onChange={(scopes) => set('scopes', scopes)}
            clearable
          />
          {tenant.fixedTenantId || tenant.locked ? (
            <TextInput
              label="Tenant"
              value={values.tenantId || tenant.fixedTenantId || 'All tenants'}
              description={values.tenantId || tenant.fixedTenantId ? BOUND_KEY : ALL_TENANTS_NEEDS}
              readOnly
            />
          ) : tenant.tenants ? (
            <Select
              label="Tenant"
              description={values.tenantId ? BOUND_KEY : ALL_TENANTS_NEEDS}
              data={[
                { value: '', label: 'All tenants' },
                ...tenant.tenants.map((t) => ({ value: t.id, label: `${t.code} — ${t.name}` })),
              ]}
              value={values.tenantId}
              onChange={(value) => set('tenantId', value ?? '')}
              allowDeselect={false}
            />
          ) : (
            <TextInput
              label="Tenant id"
              description={values.tenantId ? BOUND_KEY : `Empty: a key of all tenants. ${ALL_TENANTS_NEEDS}`}
              value={values.tenantId}
              onChange={(e) => set('tenantId', e.currentTarget.value.trim())}
            />
          )}
          <TextInput
            label="Expires at"
            description="Leave empty for a key that does not expire"
            type="datetime-local"
            value={values.expiresAt}
            onChange={(e) => set('expiresAt', e.currentTarget.value)}
          />
          <Textarea
            label="IP whitelist"
            description="One IPv4/IPv6 address or CIDR range per line, e.g. 203.0.113.0/24; empty allows every address"
            autosize
            minRows={2}
            value={values.ipWhitelist}
            onChange={(e) => set('ipWhitelist', e.currentTarget.value)}
          />
          <Textarea
            label="Allowed origins"
            description="One origin per line, e.g. https://shop.example.com; empty allows every origin"
            autosize
            minRows={2}
            value={values.allowedOrigins}
            onChange={(e) => set('allowedOrigins', e.currentTarget.value)}
          />
          <NumberInput
            label="Rate limit (requests per minute)"
            description="Empty or 0: no limit"
            min={0}
            max={1_000_000}
            allowDecimal={false}
            value={values.rateLimitPerMinute}
            onChange={(value) => set('rateLimitPerMinute', value)}
          />
          <ApiVersionSelect
            description="The dated version its calls are served in; a call may choose another with Wms-Version."
            value={values.apiVersion}
            onChange={(value) => set('apiVersion', value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
