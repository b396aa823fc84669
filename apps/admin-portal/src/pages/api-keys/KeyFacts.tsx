import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ApiKey, ApiKeyStats } from '../../api';
import { formatDateTime, formatNumber, formatPercent, formatRelative, tenantLabel, useTenants } from '../../components';
import classes from './KeyFacts.module.css';

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={`stat-${label}`}>
        {value}
      </Text>
    </Paper>
  );
}

export function StatCards({ stats }: { stats: ApiKeyStats }) {
  return (
    <div className={classes.stats}>
      <Stat label="Requests 24 h" value={formatNumber(stats.requests24h)} />
      <Stat label="Requests 7 d" value={formatNumber(stats.requests7d)} />
      <Stat label="Error rate 7 d" value={formatPercent(stats.errorRate)} />
      <Stat label="Average time" value={`${stats.avgResponseTimeMs.toFixed(1)} ms`} />
      <Stat label="Rate-limited 7 d" value={formatNumber(stats.rateLimited)} />
      <Stat label="Refused 7 d" value={formatNumber(stats.refused)} />
    </div>
  );
}

/** Answered calls over 7 days by the dated version that served them: who still calls a deprecated one. */
export function CallsByVersion({ stats }: { stats: ApiKeyStats }) {
  const versions = Object.entries(stats.requestsByVersion ?? {}).sort(([a], [b]) => b.localeCompare(a));
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="md">
        Calls by API version (7 d)
      </Title>
      {versions.length === 0 ? (
        <Text c="dimmed">No calls in the last 7 days.</Text>
      ) : (
        <dl className={classes.facts} data-testid="calls-by-version">
          {versions.map(([version, calls]) => (
            <Fact key={version} term={version}>
              {formatNumber(Number(calls))}
            </Fact>
          ))}
        </dl>
      )}
    </Paper>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

const list = (values: string[], empty: string) =>
  values.length === 0 ? (
    <Text span c="dimmed">
      {empty}
    </Text>
  ) : (
    <Stack gap={2}>
      {values.map((value) => (
        <span key={value} className="mono">
          {value}
        </span>
      ))}
    </Stack>
  );

export function KeyFacts({ apiKey }: { apiKey: ApiKey }) {
  const tenants = useTenants();
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="md">
        Settings
      </Title>
      <dl className={classes.facts}>
        <Fact term="Prefix">
          <span className="mono">{apiKey.keyPrefix}…</span>
        </Fact>
        <Fact term="Description">
          {apiKey.description || (
            <Text span c="dimmed">
              none
            </Text>
          )}
        </Fact>
        <Fact term="Scopes">
          <Group gap={4}>
            {apiKey.scopes.map((scope) => (
              <Badge key={scope} variant="outline" color="gray" size="sm">
                {scope}
              </Badge>
            ))}
          </Group>
        </Fact>
        <Fact term="Tenant">
          {tenantLabel(apiKey.tenantId, tenants, 'all tenants')}{' '}
          {apiKey.tenantId && (
            <Text span c="dimmed" className="mono">
              {apiKey.tenantId}
            </Text>
          )}
        </Fact>
        <Fact term="Expires">{apiKey.expiresAt ? formatDateTime(apiKey.expiresAt) : 'never'}</Fact>
        <Fact term="IP whitelist">{list(apiKey.ipWhitelist, 'every address')}</Fact>
        <Fact term="Allowed origins">{list(apiKey.allowedOrigins, 'every origin')}</Fact>
        <Fact term="API version">
          <span className="mono" data-testid="key-api-version">
            {apiKey.apiVersion}
          </span>
        </Fact>
        <Fact term="Rate limit">
          {apiKey.rateLimitPerMinute ? `${formatNumber(apiKey.rateLimitPerMinute)} / minute` : 'unlimited'}
        </Fact>
        <Fact term="Created">{formatDateTime(apiKey.createdAt)}</Fact>
        <Fact term="Last used">{apiKey.lastUsedAt ? formatRelative(apiKey.lastUsedAt) : 'never'}</Fact>
      </dl>
    </Paper>
  );
}
