import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { apiKeysApi } from '../../api';
import { usePermission } from '../../auth';
import { ErrorNotice, Loading, PageHeader, useApi } from '../../components';
import { AuditTable } from '../audit';
import { KeyFacts, StatCards } from './KeyFacts';
import { KeyStatusBadge } from './KeyStatusBadge';
import { RecentRequests } from './RecentRequests';
import { RevokeActivateButton } from './RevokeActivateButton';

const TrafficChart = lazy(() => import('./TrafficChart'));

/** One key: its numbers, its traffic per hour and per day, its settings, latest requests and audit trail. */
export default function ApiKeyDetailPage() {
  const id = useParams().id!;
  const { write } = usePermission('api-keys');
  const audit = usePermission('audit');
  const key = useApi(() => apiKeysApi.get(id), [id]);
  const stats = useApi(() => apiKeysApi.stats(id), [id]);
  const trail = useApi(() => (audit.read ? apiKeysApi.auditTrail(id) : Promise.resolve(null)), [id, audit.read]);
  const [range, setRange] = useState<'hour' | 'day'>('hour');

  if (key.error) return <ErrorNotice error={key.error} title="The key could not be loaded" />;
  if (!key.data) return <Loading />;
  const apiKey = key.data;
  const refresh = () => {
    key.reload();
    stats.reload();
    trail.reload();
  };

  return (
    <Stack gap="lg">
      <PageHeader
        title={apiKey.name}
        description={<KeyStatusBadge apiKey={apiKey} />}
        actions={
          write && (
            <>
              <Button variant="default" component={Link} to={`/api-keys/${id}/edit`}>
                Edit
              </Button>
              <RevokeActivateButton apiKey={apiKey} onChanged={refresh} />
            </>
          )
        }
      />
      {!apiKey.active && (
        <Alert color="red" variant="light" title="Revoked">
          Calls with this key are refused with 401 until it is activated again.
        </Alert>
      )}
      <ErrorNotice error={stats.error} title="Statistics could not be loaded" />
      {stats.data && <StatCards stats={stats.data} />}
      <Paper withBorder radius="md" p="lg">
        <Group justify="space-between" mb="md">
          <Title order={2} size="h4">
            Traffic
          </Title>
          <SegmentedControl
            aria-label="Chart range"
            value={range}
            onChange={(value) => setRange(value as 'hour' | 'day')}
            data={[
              { value: 'hour', label: 'Last 24 hours' },
              { value: 'day', label: 'Last 7 days' },
            ]}
          />
        </Group>
        <div data-testid="traffic-chart">
          {stats.data ? (
            <Suspense fallback={<Loading label="Loading chart" />}>
              <TrafficChart points={range === 'hour' ? stats.data.hourly : stats.data.daily} unit={range} />
            </Suspense>
          ) : (
            <Loading />
          )}
        </div>
      </Paper>
      <KeyFacts apiKey={apiKey} />
      <section aria-labelledby="recent-title">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4" id="recent-title">
            Latest requests
          </Title>
          <Button variant="subtle" size="xs" onClick={stats.reload}>
            Refresh
          </Button>
        </Group>
        <RecentRequests requests={stats.data?.recentRequests ?? []} />
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
