import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { apiKeysApi } from '../../api';
import { ErrorNotice, Loading, PageHeader, useApi } from '../../components';
import { ApiKeyForm, initialValues, toInput } from './ApiKeyForm';

/** Edits every field but the tenant (fixed at creation); only what changed is sent. */
export default function EditApiKeyPage() {
  const id = useParams().id!;
  const navigate = useNavigate();
  const key = useApi(['api-keys', id], () => apiKeysApi.get(id));
  const [error, setError] = useState<unknown>();

  if (key.error) return <ErrorNotice error={key.error} title="The key could not be loaded" />;
  if (!key.data) return <Loading />;
  const original = key.data;

  return (
    <>
      <PageHeader title={`Edit ${original.name}`} />
      <ApiKeyForm
        initial={initialValues(original)}
        tenant={{ tenants: null, fixedTenantId: null, locked: true }}
        submitLabel="Save changes"
        error={<ErrorNotice error={error} title="The changes were not saved" />}
        onCancel={() => navigate(`/api-keys/${id}`)}
        onSubmit={async (values) => {
          setError(undefined);
          const { tenantId: _tenant, ...input } = toInput(values);
          const before = toInput(initialValues(original));
          const changed = Object.fromEntries(
            Object.entries(input).filter(
              ([field, value]) => JSON.stringify(value) !== JSON.stringify(before[field as keyof typeof before]),
            ),
          );
          try {
            if (Object.keys(changed).length > 0) await apiKeysApi.update(id, changed);
            navigate(`/api-keys/${id}`);
          } catch (failure) {
            setError(failure);
          }
        }}
      />
    </>
  );
}
