import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ediApi, type TradingPartner } from '../../../api';
import { usePermission } from '../../../auth';
import {
  ConfirmButton,
  ErrorNotice,
  Fact,
  Facts,
  Loading,
  PageHeader,
  tenantLabel,
  useApi,
  useTenants,
} from '../../../components';
import { AuditTable } from '../../audit';
import { DocumentsList } from '../documents/DocumentsList';
import { SftpAccount } from '../sftp/SftpAccount';
import { PartnerStatusBadge } from './PartnerStatusBadge';
import { SetBadges } from './PartnersPage';

function Settings({ partner }: { partner: TradingPartner }) {
  const tenants = useTenants();
  const party = (side: TradingPartner['partner']) => (
    <span className="mono">
      {side.qualifier}:{side.interchangeId} · GS {side.groupCode}
    </span>
  );
  return (
    <Facts title="Settings">
      <Fact term="Status">
        <PartnerStatusBadge status={partner.status} />
      </Fact>
      <Fact term="Tenant">{tenantLabel(partner.tenantId, tenants)}</Fact>
      <Fact term="The partner">{party(partner.partner)}</Fact>
      <Fact term="Us">{party(partner.us)}</Fact>
      <Fact term="Version and usage">
        {partner.x12Version} · {partner.usageIndicator === 'P' ? 'production' : 'test'}
      </Fact>
      <Fact term="Separators we send">
        <span className="mono">
          {partner.separators.element} {partner.separators.component} {partner.separators.segment}
        </span>
      </Fact>
      <Fact term="Sets received">
        <SetBadges sets={partner.inboundSets} color="blue" />
      </Fact>
      <Fact term="Sets sent">
        <SetBadges sets={partner.outboundSets} color="grape" />
      </Fact>
      <Fact term="Default warehouse">{partner.warehouseCode ?? 'none'}</Fact>
      <Fact term="Ship-from">{partner.shipFrom?.name ?? 'none'}</Fact>
      <Fact term="846 schedule">
        {partner.inventoryAdviceMinutes ? `every ${partner.inventoryAdviceMinutes} minutes` : 'on demand only'}
      </Fact>
      <Fact term="Overdue after">{partner.ackOverdueHours} hours without a 997</Fact>
      <Fact term="API key">{partner.apiKeyId ? <Link to={`/api-keys/${partner.apiKeyId}`}>bound</Link> : 'none'}</Fact>
    </Facts>
  );
}

/** A trading partner: its settings, its SFTP account, its documents and its audit trail. */
export default function PartnerDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { write } = usePermission('edi');
  const audit = usePermission('audit');
  const partner = useApi(['edi-partners', id], () => ediApi.get(id));
  const trail = useApi(['audit', 'edi_trading_partner', id, audit.read], () =>
    audit.read ? ediApi.auditTrail(id) : Promise.resolve(null),
  );
  const [error, setError] = useState<unknown>();
  const changed = () => {
    partner.reload();
    trail.reload();
  };

  if (partner.error) return <ErrorNotice error={partner.error} />;
  if (!partner.data) return <Loading />;
  const data = partner.data;
  return (
    <Stack gap="lg">
      <PageHeader
        title={data.name}
        description="EDI trading partner"
        actions={
          write && (
            <Group>
              <Button component={Link} to={`/edi/partners/${id}/edit`} variant="default">
                Edit
              </Button>
              {data.outboundSets.includes('846') && data.status === 'active' && (
                <ConfirmButton
                  label="Send 846 now"
                  title="Send the inventory advice now"
                  message="The partner's stock is written as an 846 into its out/ folder."
                  confirmLabel="Send 846"
                  onConfirm={() => ediApi.inventoryAdvice(id)}
                  onDone={changed}
                />
              )}
              {data.status === 'active' ? (
                <ConfirmButton
                  label="Disable"
                  title="Disable the partner"
                  message="Its SFTP account and POST /edi refuse it and no advice is sent until it is enabled."
                  confirmLabel="Disable"
                  color="red"
                  onConfirm={() => ediApi.disable(id)}
                  onDone={changed}
                />
              ) : (
                <Button variant="default" onClick={() => ediApi.enable(id).then(changed, setError)}>
                  Enable
                </Button>
              )}
              <ConfirmButton
                label="Delete"
                title="Delete the partner"
                message="Only a partner that never exchanged a document can be deleted; disable one that did."
                confirmLabel="Delete"
                color="red"
                onConfirm={() => ediApi.remove(id)}
                onDone={() => navigate('/edi/partners', { replace: true })}
              />
            </Group>
          )
        }
      />
      <ErrorNotice error={error} />
      <Settings partner={data} />
      <SftpAccount partner={data} canWrite={write} onChanged={changed} />
      <section aria-labelledby="documents-title">
        <Title order={2} size="h4" id="documents-title" mb="sm">
          Documents
        </Title>
        <DocumentsList partnerId={id} />
      </section>
      {audit.read && (
        <section aria-labelledby="trail-title">
          <Title order={2} size="h4" id="trail-title" mb="sm">
            Audit trail
          </Title>
          <ErrorNotice error={trail.error} />
          {trail.data ? <AuditTable entries={trail.data} /> : <Text c="dimmed">Loading…</Text>}
        </section>
      )}
    </Stack>
  );
}
