import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ediApi } from '../../../api';
import { ErrorNotice, Loading, PageHeader, useApi, useTenants } from '../../../components';
import { PartnerForm, initialPartnerValues, partnerRequest } from './PartnerForm';

export default function EditPartnerPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const tenants = useTenants();
  const partner = useApi(['edi-partners', id], () => ediApi.get(id));
  const [error, setError] = useState<unknown>();

  if (partner.error) return <ErrorNotice error={partner.error} />;
  if (!partner.data) return <Loading />;
  return (
    <>
      <PageHeader title={`Edit ${partner.data.name}`} />
      <PartnerForm
        mode="edit"
        initial={initialPartnerValues(partner.data)}
        tenants={tenants}
        submitLabel="Save changes"
        error={<ErrorNotice error={error} title="The changes were not saved" />}
        onCancel={() => navigate(`/edi/partners/${id}`)}
        onSubmit={async (values) => {
          setError(undefined);
          try {
            await ediApi.update(id, partnerRequest(values));
            partner.reload();
            navigate(`/edi/partners/${id}`);
          } catch (failure) {
            setError(failure);
          }
        }}
      />
    </>
  );
}
