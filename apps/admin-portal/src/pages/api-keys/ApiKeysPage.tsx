import { Anchor, Badge, Button, Group, Paper, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { apiKeysApi, type ApiKey } from '../../api';
import { usePermission } from '../../auth';
import {
  ErrorNotice,
  Loading,
  PageHeader,
  formatDateTime,
  formatRelative,
  tenantLabel,
  useApi,
  useTenants,
} from '../../components';
import { KeyStatusBadge } from './KeyStatusBadge';

function matches(key: ApiKey, needle: string, tenant: string): boolean {
  if (!needle) return true;
  const haystack = [key.name, key.keyPrefix, key.tenantId ?? '', tenant, key.description, ...key.scopes]
    .join(' ')
    .toLowerCase();
  return needle
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

/** When a key, or its previous raw key during a roll's grace period, stops working. */
export function ExpiryCell({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Stack gap={0}>
      <span>{apiKey.expiresAt ? formatDateTime(apiKey.expiresAt) : 'never'}</span>
      {apiKey.expiresSoon && apiKey.expiresAt && (
        <Text size="xs" c="dimmed">
          {formatRelative(apiKey.expiresAt)}
        </Text>
      )}
      {apiKey.previousKey && (
        <Text size="xs" c="dimmed">
          previous key until {formatDateTime(apiKey.previousKey.expiresAt)}
        </Text>
      )}
    </Stack>
  );
}

/** The window the API's `expiringWithin` is asked for, as keys' `expiresSoon` counts it. */
export const EXPIRING_WITHIN = 'P14D';

/** Every key the user may see, searchable by name, prefix, tenant, scope or description; or those expiring soon. */
export default function ApiKeysPage() {
  const { write } = usePermission('api-keys');
  const tenants = useTenants();
  const [show, setShow] = useState<'all' | 'expiring'>('all');
  const { data, error, loading } = useApi(['api-keys', 'list', show], () =>
    apiKeysApi.list(show === 'expiring' ? { expiringWithin: EXPIRING_WITHIN } : {}),
  );
  const [search, setSearch] = useState('');
  const shown = useMemo(
    () => (data ?? []).filter((key) => matches(key, search.trim(), tenantLabel(key.tenantId, tenants, 'all tenants'))),
    [data, search, tenants],
  );

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys that ERPs, shops and carriers use to call the integration API."
        actions={
          write && (
            <Button component={Link} to="/api-keys/new">
              Create API key
            </Button>
          )
        }
      />
      <ErrorNotice error={error} />
      <Group mb="md" align="flex-end">
        <TextInput
          label="Search keys"
          placeholder="Name, prefix, tenant or scope"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={360}
        />
        <SegmentedControl
          aria-label="Show keys"
          value={show}
          onChange={(value) => setShow(value as 'all' | 'expiring')}
          data={[
            { value: 'all', label: 'All keys' },
            { value: 'expiring', label: 'Expiring within 14 days' },
          ]}
        />
      </Group>
      {loading && !data ? (
        <Loading />
      ) : (
        <Paper withBorder radius="md">
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Prefix</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Scopes</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Last used</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((key) => (
                <Table.Tr key={key.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/api-keys/${key.id}`} fw={500}>
                      {key.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td className="mono">{key.keyPrefix}…</Table.Td>
                  <Table.Td>{tenantLabel(key.tenantId, tenants, 'all tenants')}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {key.scopes.map((scope) => (
                        <Badge key={scope} variant="outline" size="sm" color="gray">
                          {scope}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <KeyStatusBadge apiKey={key} />
                  </Table.Td>
                  <Table.Td>
                    <ExpiryCell apiKey={key} />
                  </Table.Td>
                  <Table.Td>{key.lastUsedAt ? formatRelative(key.lastUsedAt) : 'never'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {shown.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              {data?.length
                ? 'No key matches the search.'
                : show === 'expiring'
                  ? 'No key stops working within 14 days.'
                  : 'No API keys yet.'}
            </Text>
          )}
        </Paper>
      )}
    </>
  );
}
