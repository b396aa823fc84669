import { Code, Modal, Table, Text } from '@mantine/core';
import { webhooksApi, type WebhookDelivery } from '../../api';
import { ErrorNotice, Loading, formatDateTime, useApi } from '../../components';

/** Every HTTP attempt of one delivery, newest first: what the subscriber answered and how fast. */
export function AttemptsDialog(props: { subscriptionId: string; delivery: WebhookDelivery; onClose: () => void }) {
  const { data, error } = useApi(['webhooks', props.subscriptionId, 'attempts', props.delivery.id], () =>
    webhooksApi.attempts(props.subscriptionId, props.delivery.id),
  );
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={`Attempts of ${props.delivery.event}`}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      lockScroll={false}
    >
      <Text size="sm" c="dimmed" mb="sm">
        Event <span className="mono">{props.delivery.eventId}</span> (the <Code>webhook-id</Code> header). Run 0 is the
        first delivery; each replay starts the next run.
      </Text>
      <ErrorNotice error={error} />
      {!data ? (
        <Loading />
      ) : data.length === 0 ? (
        <Text c="dimmed">No attempt yet.</Text>
      ) : (
        <Table striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Run</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Time</Table.Th>
              <Table.Th>Retry-After</Table.Th>
              <Table.Th>Error or answer</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.map((attempt) => (
              <Table.Tr key={attempt.id}>
                <Table.Td>{formatDateTime(attempt.createdAt)}</Table.Td>
                <Table.Td>{attempt.run}</Table.Td>
                <Table.Td className="mono">{attempt.statusCode ?? '—'}</Table.Td>
                <Table.Td>{`${Math.round(attempt.latencyMs)} ms`}</Table.Td>
                <Table.Td title="The wait the receiver asked for before the next attempt">
                  {attempt.retryAfterMs === null ? '—' : formatWait(attempt.retryAfterMs)}
                </Table.Td>
                <Table.Td>
                  {attempt.error && <Text size="sm">{attempt.error}</Text>}
                  {attempt.responseBody && (
                    <Code block mah={120}>
                      {attempt.responseBody}
                    </Code>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}

/** A Retry-After wait as the receiver likely wrote it: seconds, or minutes and hours when long. */
function formatWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3_600).toFixed(1)} h`;
}
