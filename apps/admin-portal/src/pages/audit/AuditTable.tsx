import { Anchor, Badge, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AuditEntry } from '../../api';
import { formatDateTime } from '../../components';
import classes from './AuditTable.module.css';

/** Where the portal shows an entity of this type, if it has a page for it. */
const ENTITY_PAGES: Record<string, string> = {
  api_key: '/api-keys',
  user: '/users',
  webhook_subscription: '/webhooks',
};

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

function isFieldChange(value: unknown): value is { from: unknown; to: unknown } {
  return typeof value === 'object' && value !== null && 'from' in value && 'to' in value;
}

/** A change as "field: before → after"; a creation's snapshot as "field: value". */
export function ChangesList({ changes }: { changes: Record<string, unknown> }) {
  const fields = Object.entries(changes);
  if (fields.length === 0)
    return (
      <Text c="dimmed" size="sm">
        no fields
      </Text>
    );
  return (
    <Stack gap={2} className={classes.changes}>
      {fields.map(([field, value]) => (
        <Text key={field} size="xs" className="mono">
          <span className={classes.field}>{field}</span>:{' '}
          {isFieldChange(value) ? (
            <>
              <span className={classes.from}>{show(value.from)}</span> → <span>{show(value.to)}</span>
            </>
          ) : (
            show(value)
          )}
        </Text>
      ))}
    </Stack>
  );
}

function Entity({ entry }: { entry: AuditEntry }) {
  const page = ENTITY_PAGES[entry.entityType];
  return (
    <Stack gap={0}>
      <Text size="sm">{entry.entityType}</Text>
      {page ? (
        <Anchor component={Link} to={`${page}/${entry.entityId}`} size="xs" className="mono" title={entry.entityId}>
          {entry.entityId.slice(0, 8)}…
        </Anchor>
      ) : (
        <Text size="xs" className="mono" title={entry.entityId}>
          {entry.entityId}
        </Text>
      )}
    </Stack>
  );
}

/** Audit entries newest first: when, what, on which entity, by whom, and what changed. */
export function AuditTable({ entries, empty = 'No entries.' }: { entries: AuditEntry[]; empty?: string }) {
  return (
    <Paper withBorder radius="md">
      <Table striped verticalSpacing="sm" data-testid="audit-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={170}>When</Table.Th>
            <Table.Th w={190}>Action</Table.Th>
            <Table.Th w={150}>Entity</Table.Th>
            <Table.Th w={220}>Actor</Table.Th>
            <Table.Th>Changes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>
                <Text size="sm">{formatDateTime(entry.createdAt)}</Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color="gray" tt="none">
                  {entry.action}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Entity entry={entry} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {entry.actorEmail ?? (entry.actorUserId ? `${entry.actorUserId.slice(0, 8)}…` : 'system')}
                </Text>
              </Table.Td>
              <Table.Td>
                <ChangesList changes={entry.changes} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {entries.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {empty}
        </Text>
      )}
    </Paper>
  );
}
