import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ediApi, type TradingPartnerInput } from '../../../api';
import { usePrincipal } from '../../../auth';
import { ErrorNotice, PageHeader, useTenants } from '../../../components';
import { PartnerForm, initialPartnerValues, partnerRequest } from './PartnerForm';

/** Adds a trading partner; its page then offers the SFTP password (shown once) and keys. */
export default function CreatePartnerPage() {
  const principal = usePrincipal();
  const navigate = useNavigate();
  const tenants = useTenants();
  const [error, setError] = useState<unknown>();

  return (
    <>
      <PageHeader
        title="Add EDI partner"
        description="Its envelope identifiers, the sets each way and the mapping defaults."
      />
      <PartnerForm
        mode="create"
        initial={initialPartnerValues(undefined, principal.tenantId ?? '')}
        tenants={tenants}
        submitLabel="Add partner"
        error={<ErrorNotice error={error} title="The partner was not added" />}
        onCancel={() => navigate('/edi/partners')}
        onSubmit={async (values) => {
          setError(undefined);
          try {
            const body = { ...partnerRequest(values), tenantId: values.tenantId || undefined } as TradingPartnerInput;
            const created = await ediApi.create(body);
            navigate(`/edi/partners/${created.id}`, { replace: true });
          } catch (failure) {
            setError(failure);
          }
        }}
      />
    </>
  );
}
