import { Anchor, Button, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { webhooksApi } from '../../api';
import { usePermission } from '../../auth';
import { ErrorNotice, Loading, PageHeader, formatDateTime, tenantLabel, useApi, useTenants } from '../../components';
import { EventBadges } from './EventBadges';
import { WebhookStatusBadge } from './WebhookStatusBadge';

/** Webhook subscriptions the user may see (a tenant-bound user: its tenant's). */
export default function WebhooksPage() {
  const { write } = usePermission('webhooks');
  const { data, error, loading } = useApi(['webhooks', 'list'], () => webhooksApi.list());
  const tenants = useTenants();

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Subscriptions that receive signed event notifications."
        actions={
          write && (
            <Button component={Link} to="/webhooks/new">
              Create subscription
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
                <Table.Th>URL</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.map((subscription) => (
                <Table.Tr key={subscription.id}>
                  <Table.Td>
                    <Stack gap={0}>
                      <Anchor component={Link} to={`/webhooks/${subscription.id}`} className="mono" fw={500}>
                        {subscription.url}
                      </Anchor>
                      {subscription.description && (
                        <Text size="xs" c="dimmed">
                          {subscription.description}
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <EventBadges events={subscription.events} />
                  </Table.Td>
                  <Table.Td>{tenantLabel(subscription.tenantId, tenants)}</Table.Td>
                  <Table.Td>
                    <WebhookStatusBadge subscription={subscription} />
                  </Table.Td>
                  <Table.Td>{formatDateTime(subscription.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {data?.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              No subscriptions yet.
            </Text>
          )}
        </Paper>
      )}
    </>
  );
}
