import { Badge, Button, Checkbox, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { tenantsApi } from '../../api';
import { usePrincipal } from '../../auth';
import { ErrorNotice, Loading, PageHeader, formatDateTime, useApi } from '../../components';

/** A sandbox tenant's keys may run simulations and its events say `"sandbox": true`; shown wherever it is listed. */
export function SandboxBadge() {
  return (
    <Badge color="orange" variant="light" data-testid="sandbox-badge">
      Sandbox
    </Badge>
  );
}

/** A new tenant: its code, name and whether it is a sandbox (fixed once created). Cross-tenant admins only. */
function CreateTenantForm({ onCreated }: { onCreated: () => void }) {
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [sandbox, setSandbox] = useState(false);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await tenantsApi.create({ code: code.trim(), name: name.trim(), sandbox });
      setCode('');
      setName('');
      setSandbox(false);
      onCreated();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Paper withBorder radius="md" p="lg" maw={820}>
        <Stack gap="md">
          <Title order={2} size="h4">
            Create tenant
          </Title>
          <ErrorNotice error={error} title="The tenant was not created" />
          <Group align="flex-start" grow>
            <TextInput
              label="Code"
              description="Letters, digits, - and _"
              required
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} />
          </Group>
          <Checkbox
            label="Sandbox"
            description="Its API keys may run simulations of warehouse work, and its events carry sandbox: true. Cannot be changed later."
            checked={sandbox}
            onChange={(event) => setSandbox(event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Create tenant
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

/** The tenants an admin sees (a tenant-bound admin: its own), sandboxes marked; cross-tenant admins create them. */
export default function TenantsPage() {
  const principal = usePrincipal();
  const { data, error, loading, reload } = useApi(['tenants', 'list'], () => tenantsApi.list());
  const mayCreate = principal.role === 'admin' && !principal.tenantId;

  return (
    <>
      <PageHeader
        title="Tenants"
        description="The companies the warehouse works for; a sandbox tenant is for trying integrations."
      />
      <Stack gap="lg">
        <ErrorNotice error={error} />
        {loading && !data ? (
          <Loading />
        ) : (
          <Paper withBorder radius="md">
            <Table striped verticalSpacing="sm" data-testid="tenants-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Code</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data?.map((tenant) => (
                  <Table.Tr key={tenant.id} data-testid={`tenant-${tenant.code}`}>
                    <Table.Td className="mono">{tenant.code}</Table.Td>
                    <Table.Td>{tenant.name}</Table.Td>
                    <Table.Td>
                      {tenant.sandbox ? (
                        <SandboxBadge />
                      ) : (
                        <Text size="sm" c="dimmed">
                          Production
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{formatDateTime(tenant.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        {mayCreate && <CreateTenantForm onCreated={reload} />}
      </Stack>
    </>
  );
}
