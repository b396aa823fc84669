import { Anchor, Badge, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { overviewApi, type Overview } from '../../api';
import {
  ErrorNotice,
  Loading,
  PageHeader,
  formatNumber,
  formatPercent,
  formatRelative,
  useApi,
} from '../../components';
import { usePermission } from '../../auth';
import { ExpiringKeys } from './ExpiringKeys';
import classes from './OverviewPage.module.css';

function Metric({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={`metric-${label}`}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

function Traffic({ traffic }: { traffic: NonNullable<Overview['traffic']> }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="sm">
        Busiest keys, last 24 hours
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th ta="right">Requests</Table.Th>
            <Table.Th ta="right">Errors</Table.Th>
            <Table.Th ta="right">Rate-limited</Table.Th>
            <Table.Th ta="right">Refused</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {traffic.busiestKeys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td>
                <Anchor component={Link} to={`/api-keys/${key.id}`}>
                  {key.name}
                </Anchor>{' '}
                <Text span c="dimmed" className="mono">
                  {key.keyPrefix}…
                </Text>
              </Table.Td>
              <Table.Td ta="right">{formatNumber(key.requests24h)}</Table.Td>
              <Table.Td ta="right">{formatNumber(key.errors24h)}</Table.Td>
              <Table.Td ta="right">{formatNumber(key.rateLimited24h)}</Table.Td>
              <Table.Td ta="right">{formatNumber(key.refused24h)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {traffic.busiestKeys.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          No calls in the last 24 hours.
        </Text>
      )}
    </Paper>
  );
}

function FailingWebhooks({ webhooks }: { webhooks: NonNullable<Overview['webhooks']> }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="sm">
        Failing webhook subscriptions
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>URL</Table.Th>
            <Table.Th ta="right">Failed 24 h</Table.Th>
            <Table.Th>Last error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {webhooks.failingSubscriptions.map((subscription) => (
            <Table.Tr key={subscription.id}>
              <Table.Td className="mono">
                <Anchor component={Link} to={`/webhooks/${subscription.id}`}>
                  {subscription.url}
                </Anchor>{' '}
                {!subscription.active && (
                  <Badge color="gray" variant="light" size="sm">
                    disabled
                  </Badge>
                )}
              </Table.Td>
              <Table.Td ta="right">{formatNumber(subscription.failed24h)}</Table.Td>
              <Table.Td>
                <Text size="sm">
                  {subscription.disabledReason ??
                    subscription.lastError ??
                    (subscription.lastStatusCode ? `HTTP ${subscription.lastStatusCode}` : '—')}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatRelative(subscription.lastFailureAt)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {webhooks.failingSubscriptions.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          Every subscription is delivering.
        </Text>
      )}
    </Paper>
  );
}

function Queues({ queues }: { queues: NonNullable<Overview['queues']> }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="sm">
        Queues
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Queue</Table.Th>
            <Table.Th ta="right">Waiting</Table.Th>
            <Table.Th ta="right">Active</Table.Th>
            <Table.Th ta="right">Delayed</Table.Th>
            <Table.Th ta="right">Failed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {queues.map((queue) => (
            <Table.Tr key={queue.name} data-testid={`queue-${queue.name}`}>
              <Table.Td>{queue.name}</Table.Td>
              <Table.Td ta="right">{formatNumber(queue.waiting)}</Table.Td>
              <Table.Td ta="right">{formatNumber(queue.active)}</Table.Td>
              <Table.Td ta="right">{formatNumber(queue.delayed)}</Table.Td>
              <Table.Td ta="right">{formatNumber(queue.failed)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The state of the integrations at a glance; each part shows only when the user may read its module. */
export default function OverviewPage() {
  const { data, error, loading } = useApi(['overview'], () => overviewApi.get());
  const keys = usePermission('api-keys');
  return (
    <>
      <PageHeader title="Overview" description="Traffic, failing deliveries and queue depth right now." />
      <ErrorNotice error={error} />
      {loading && !data ? (
        <Loading />
      ) : (
        data && (
          <Stack gap="lg">
            <div className={classes.metrics}>
              {data.traffic && (
                <>
                  <Metric label="Requests 24 h" value={formatNumber(data.traffic.requests24h)} hint="across all keys" />
                  <Metric
                    label="Error rate 24 h"
                    value={formatPercent(data.traffic.errorRate)}
                    hint={`${formatNumber(data.traffic.errors24h)} answers with status 400 or more`}
                  />
                  <Metric
                    label="Rate-limited 24 h"
                    value={formatNumber(data.traffic.rateLimited24h)}
                    hint={`calls refused with 429; ${formatNumber(data.traffic.refused24h)} refused by IP or origin (403)`}
                  />
                  <Metric label="Active keys" value={formatNumber(data.traffic.activeKeys)} />
                </>
              )}
              {data.webhooks && (
                <Metric
                  label="Failing subscriptions"
                  value={formatNumber(data.webhooks.failingSubscriptions.length)}
                  hint={`of ${formatNumber(data.webhooks.subscriptions)} subscriptions`}
                />
              )}
            </div>
            <div className={classes.panels}>
              {data.traffic && <Traffic traffic={data.traffic} />}
              {data.webhooks && <FailingWebhooks webhooks={data.webhooks} />}
              {keys.read && <ExpiringKeys />}
            </div>
            {data.queues && <Queues queues={data.queues} />}
            {!data.traffic && !data.webhooks && !data.queues && (
              <Text c="dimmed">Your account has no module whose figures show here.</Text>
            )}
          </Stack>
        )
      )}
    </>
  );
}
