import { Alert, Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { apiKeysApi, tenantsApi, type CreatedApiKey } from '../../api';
import { usePrincipal } from '../../auth';
import { CopyableValue, ErrorNotice, PageHeader, useApi } from '../../components';
import { ApiKeyForm, initialValues, toInput } from './ApiKeyForm';

/** The admin form; on success the raw key is shown this once, held only in this page's memory. */
export default function CreateApiKeyPage() {
  const principal = usePrincipal();
  const navigate = useNavigate();
  const isAdmin = principal.role === 'admin';
  const tenants = useApi(() => (isAdmin ? tenantsApi.list() : Promise.resolve(null)), [isAdmin]);
  const [error, setError] = useState<unknown>();
  const [created, setCreated] = useState<CreatedApiKey>();

  if (created) return <RawKeyOnce created={created} />;

  return (
    <>
      <PageHeader
        title="Create API key"
        description="The key is shown once after it is created; only its hash is stored."
      />
      <ApiKeyForm
        initial={{ ...initialValues(), tenantId: principal.tenantId ?? '' }}
        tenant={{ tenants: tenants.data ?? null, fixedTenantId: principal.tenantId, locked: false }}
        submitLabel="Create key"
        error={<ErrorNotice error={error} title="The key was not created" />}
        onCancel={() => navigate('/api-keys')}
        onSubmit={async (values) => {
          setError(undefined);
          try {
            setCreated(await apiKeysApi.create(toInput(values)));
          } catch (failure) {
            setError(failure);
          }
        }}
      />
    </>
  );
}

function RawKeyOnce({ created }: { created: CreatedApiKey }) {
  return (
    <>
      <PageHeader title={`Key "${created.name}" created`} />
      <Paper withBorder radius="md" p="lg" maw={720}>
        <Stack gap="md">
          <Alert color="orange" title="Copy the key now" role="alert">
            This is the only time the key is shown. It is not stored in readable form and cannot be shown again; if it
            is lost, create a new key and revoke this one.
          </Alert>
          <CopyableValue
            id="raw-key-label"
            label="API key"
            value={created.rawKey}
            copyLabel="Copy key"
            testId="raw-key"
          />
          <Text size="sm" c="dimmed">
            Send it as the <Code>X-API-Key</Code> header (or <Code>Authorization: ApiKey …</Code>).
          </Text>
          <Group justify="flex-end">
            <Button component={Link} to={`/api-keys/${created.id}`} replace>
              I have copied the key
            </Button>
          </Group>
        </Stack>
      </Paper>
    </>
  );
}
