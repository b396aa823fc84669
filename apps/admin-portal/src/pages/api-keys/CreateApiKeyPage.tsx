import { Button } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { apiKeysApi, tenantsApi, type CreatedApiKey } from '../../api';
import { usePrincipal } from '../../auth';
import { ErrorNotice, PageHeader, useApi } from '../../components';
import { ApiKeyForm, initialValues, toInput } from './ApiKeyForm';
import { RawKeyOnce } from './RawKeyOnce';

/** The admin form; on success the raw key is shown this once, held only in this page's memory. */
export default function CreateApiKeyPage() {
  const principal = usePrincipal();
  const navigate = useNavigate();
  const isAdmin = principal.role === 'admin';
  const tenants = useApi(['tenants', isAdmin], () => (isAdmin ? tenantsApi.list() : Promise.resolve(null)));
  const [error, setError] = useState<unknown>();
  const [created, setCreated] = useState<CreatedApiKey>();

  if (created) return <CreatedKey created={created} />;

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

function CreatedKey({ created }: { created: CreatedApiKey }) {
  return (
    <>
      <PageHeader title={`Key "${created.name}" created`} />
      <RawKeyOnce
        rawKey={created.rawKey}
        actions={
          <Button component={Link} to={`/api-keys/${created.id}`} replace>
            I have copied the key
          </Button>
        }
      />
    </>
  );
}
