import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { apiKeysApi } from '../../api';
import { ErrorNotice, formatDateTime, formatRelative, useApi } from '../../components';

/** When a listed key stops working: the key itself, or its previous raw key at the end of a roll's grace period. */
function endsAt(key: { expiresAt: string | null; previousKey: { expiresAt: string } | null }): string {
  const times = [key.expiresAt, key.previousKey?.expiresAt].filter((time): time is string => !!time);
  return times.sort()[0]!;
}

/** Keys (or previous raw keys) that stop working within 14 days, soonest first, so nobody is surprised by a 401. */
export function ExpiringKeys() {
  const { data, error } = useApi(['api-keys', 'expiring', 'P14D'], () => apiKeysApi.list({ expiringWithin: 'P14D' }));
  const keys = [...(data ?? [])].sort((a, b) => endsAt(a).localeCompare(endsAt(b)));
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="expiring-title">
      <Title order={2} size="h4" mb="sm" id="expiring-title">
        Keys expiring within 14 days
      </Title>
      <ErrorNotice error={error} />
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>What stops</Table.Th>
            <Table.Th>When</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => {
            const previousEnds = key.previousKey && endsAt(key) === key.previousKey.expiresAt;
            return (
              <Table.Tr key={key.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/api-keys/${key.id}`}>
                    {key.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {previousEnds ? (
                    <>
                      previous raw key <span className="mono">{key.previousKey!.keyPrefix}…</span>
                    </>
                  ) : (
                    'the key'
                  )}
                </Table.Td>
                <Table.Td>
                  {formatDateTime(endsAt(key))}{' '}
                  <Text span size="xs" c="dimmed">
                    ({formatRelative(endsAt(key))})
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {data && keys.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          No key stops working within 14 days.
        </Text>
      )}
    </Paper>
  );
}
