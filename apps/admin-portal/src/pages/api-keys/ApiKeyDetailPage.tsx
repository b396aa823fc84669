import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { apiKeysApi, type CreatedApiKey } from '../../api';
import { usePermission } from '../../auth';
import { ErrorNotice, Loading, PageHeader, formatDateTime, formatRelative, useApi } from '../../components';
import { AuditTable } from '../audit';
import { CallsByVersion, KeyFacts, StatCards } from './KeyFacts';
import { KeyStatusBadge } from './KeyStatusBadge';
import { RawKeyOnce } from './RawKeyOnce';
import { RecentRequests } from './RecentRequests';
import { RevokePreviousButton, RollKeyButton } from './RollKey';
import { RevokeActivateButton } from './RevokeActivateButton';

const TrafficChart = lazy(() => import('./TrafficChart'));

/** One key: its numbers, its traffic per hour and per day, its settings, latest requests and audit trail. */
export default function ApiKeyDetailPage() {
  const id = useParams().id!;
  const { write } = usePermission('api-keys');
  const audit = usePermission('audit');
  const key = useApi(['api-keys', id], () => apiKeysApi.get(id));
  const stats = useApi(['api-keys', id, 'stats'], () => apiKeysApi.stats(id));
  const trail = useApi(['audit', 'api_key', id, audit.read], () =>
    audit.read ? apiKeysApi.auditTrail(id) : Promise.resolve(null),
  );
  const [range, setRange] = useState<'hour' | 'day'>('hour');
  const [rolled, setRolled] = useState<CreatedApiKey>();

  if (key.error) return <ErrorNotice error={key.error} title="The key could not be loaded" />;
  if (!key.data) return <Loading />;
  const apiKey = key.data;
  const refresh = () => {
    key.reload();
    stats.reload();
    trail.reload();
  };

  if (rolled)
    return (
      <>
        <PageHeader title={`New key for "${rolled.name}"`} description="The key was rolled." />
        <RawKeyOnce
          rawKey={rolled.rawKey}
          note={
            <Text size="sm" data-testid="roll-note">
              {rolled.previousKey
                ? `The previous key (${rolled.previousKey.keyPrefix}…) keeps working until ${formatDateTime(rolled.previousKey.expiresAt)}, so clients can switch; revoke it as soon as they have.`
                : 'The previous key no longer works.'}
            </Text>
          }
          actions={
            <>
              <RevokePreviousButton apiKey={rolled} onDone={() => setRolled({ ...rolled, previousKey: null })} />
              <Button
                onClick={() => {
                  setRolled(undefined);
                  refresh();
                }}
              >
                I have copied the key
              </Button>
            </>
          }
        />
      </>
    );

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
              {apiKey.active && <RollKeyButton apiKey={apiKey} onRolled={setRolled} />}
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
      {apiKey.active && apiKey.expiresSoon && apiKey.expiresAt && (
        <Alert color="orange" variant="light" title="Expires soon" data-testid="expiry-warning">
          This key stops working on {formatDateTime(apiKey.expiresAt)} ({formatRelative(apiKey.expiresAt)}). Give it a
          later expiry (Edit) or hand its clients a new key before then.
        </Alert>
      )}
      {apiKey.previousKey && (
        <Alert color="blue" variant="light" title="Two raw keys work" data-testid="previous-key">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">
              The key was rolled {formatRelative(apiKey.rolledAt)}; the previous raw key (
              <span className="mono">{apiKey.previousKey.keyPrefix}…</span>) keeps working until{' '}
              {formatDateTime(apiKey.previousKey.expiresAt)}.
            </Text>
            {write && <RevokePreviousButton apiKey={apiKey} onDone={refresh} size="xs" />}
          </Group>
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
      {stats.data && <CallsByVersion stats={stats.data} />}
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
