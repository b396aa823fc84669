import { Badge, Paper, Table, Text } from '@mantine/core';
import type { RequestLogEntry } from '../../api';
import { formatDateTime } from '../../components';

export function RecentRequests({ requests }: { requests: RequestLogEntry[] }) {
  return (
    <Paper withBorder radius="md">
      <Table striped verticalSpacing="xs" data-testid="recent-requests">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Method</Table.Th>
            <Table.Th>Endpoint</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Time</Table.Th>
            <Table.Th>IP</Table.Th>
            <Table.Th>Origin</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {requests.map((request, index) => (
            <Table.Tr key={`${request.createdAt}-${index}`}>
              <Table.Td>{formatDateTime(request.createdAt)}</Table.Td>
              <Table.Td>{request.method}</Table.Td>
              <Table.Td className="mono">{request.endpoint}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={request.statusCode >= 400 ? 'red' : 'green'}>
                  {request.statusCode}
                </Badge>
              </Table.Td>
              <Table.Td>{request.responseTimeMs.toFixed(1)} ms</Table.Td>
              <Table.Td className="mono">{request.ip ?? '—'}</Table.Td>
              <Table.Td className="mono">{request.origin ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {requests.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          No requests yet.
        </Text>
      )}
    </Paper>
  );
}
