import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ediApi } from '../../../api';
import { usePermission } from '../../../auth';
import { ErrorNotice, Loading, PageHeader, formatDateTime, tenantLabel, useApi, useTenants } from '../../../components';
import { PartnerStatusBadge } from './PartnerStatusBadge';

/** The EDI trading partners the user may see (a tenant-bound user: its tenant's). */
export default function PartnersPage() {
  const { write } = usePermission('edi');
  const { data, error, loading } = useApi(['edi-partners', 'list'], () => ediApi.list());
  const tenants = useTenants();

  return (
    <>
      <PageHeader
        title="EDI partners"
        description="Trading partners that exchange X12 documents over SFTP or POST /edi."
        actions={
          write && (
            <Button component={Link} to="/edi/partners/new">
              Add partner
            </Button>
          )
        }
      />
      <ErrorNotice error={error} />
      {loading && !data ? (
        <Loading />
      ) : (
        <Paper withBorder radius="md">
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Partner</Table.Th>
                <Table.Th>ISA (partner → us)</Table.Th>
                <Table.Th>Sets in / out</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.map((partner) => (
                <Table.Tr key={partner.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/edi/partners/${partner.id}`} fw={500}>
                      {partner.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td className="mono">
                    {partner.partner.qualifier}:{partner.partner.interchangeId} → {partner.us.qualifier}:
                    {partner.us.interchangeId}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={4}>
                      <SetBadges sets={partner.inboundSets} color="blue" />
                      <SetBadges sets={partner.outboundSets} color="grape" />
                    </Stack>
                  </Table.Td>
                  <Table.Td>{tenantLabel(partner.tenantId, tenants)}</Table.Td>
                  <Table.Td>
                    <PartnerStatusBadge status={partner.status} />
                  </Table.Td>
                  <Table.Td>{formatDateTime(partner.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {data?.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              No trading partners yet.
            </Text>
          )}
        </Paper>
      )}
    </>
  );
}

export function SetBadges({ sets, color }: { sets: string[]; color: string }) {
  return (
    <Group gap={4}>
      {sets.map((set) => (
        <Badge key={set} color={color} variant="light" size="sm">
          {set}
        </Badge>
      ))}
    </Group>
  );
}
