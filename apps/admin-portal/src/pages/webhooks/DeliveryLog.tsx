import {
  Alert,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { webhooksApi, type DeliveryStatus, type WebhookDelivery } from '../../api';
import { ErrorNotice, Loading, formatDateTime, formatRelative } from '../../components';
import { AttemptsDialog } from './AttemptsDialog';
import { DeliveryStatusBadge } from './WebhookStatusBadge';

const PAGE_SIZE = 25;
/** While a shown delivery is pending, the log is read again this often, so its outcome appears by itself. */
const PENDING_REFRESH_MS = 2_000;

type Filter = '' | DeliveryStatus;

/**
 * A subscription's deliveries, newest first, with their outcome, the attempts behind it, and a replay of the
 * event (sent again with the same `webhook-id`, audited).
 */
export function DeliveryLog(props: {
  subscriptionId: string;
  canReplay: boolean;
  refreshKey: number;
  /** Called when shown deliveries changed and none is pending (the subscription's failure state may have changed). */
  onSettled?: () => void;
}) {
  const { subscriptionId } = props;
  const [status, setStatus] = useState<Filter>('');
  const [items, setItems] = useState<WebhookDelivery[]>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const [actionError, setActionError] = useState<unknown>();
  const [alreadyPending, setAlreadyPending] = useState(false);
  const [opened, setOpened] = useState<WebhookDelivery>();
  const [loadingMore, setLoadingMore] = useState(false);

  const loadFirst = useCallback(async () => {
    try {
      const page = await webhooksApi.deliveries(subscriptionId, { status: status || undefined, limit: PAGE_SIZE });
      setItems(page.items);
      setNextCursor(page.nextCursor);
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
  }, [subscriptionId, status]);

  useEffect(() => {
    void loadFirst();
  }, [loadFirst, props.refreshKey]);

  const pending = items?.some((delivery) => delivery.status === 'pending') ?? false;
  // Once the shown deliveries change and none is pending any more, the subscription's failure state may have too.
  const seen = useRef<string>(undefined);
  const { onSettled } = props;
  useEffect(() => {
    if (!items) return;
    const now = items.map((delivery) => `${delivery.id}:${delivery.status}:${delivery.attempts}`).join(',');
    if (seen.current !== undefined && seen.current !== now && !pending) onSettled?.();
    seen.current = now;
  }, [items, pending, onSettled]);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => void loadFirst(), PENDING_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [pending, items, loadFirst]);

  const loadMore = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await webhooksApi.deliveries(subscriptionId, {
        status: status || undefined,
        limit: PAGE_SIZE,
        cursor: nextCursor,
      });
      setItems((shown) => [...(shown ?? []), ...page.items]);
      setNextCursor(page.nextCursor);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoadingMore(false);
    }
  };

  const replay = async (delivery: WebhookDelivery) => {
    setActionError(undefined);
    try {
      const result = await webhooksApi.replay(subscriptionId, delivery.eventId);
      setAlreadyPending(!result.replayed);
      await loadFirst();
    } catch (failure) {
      setActionError(failure);
    }
  };

  return (
    <section aria-labelledby="deliveries-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="deliveries-title">
          Deliveries
        </Title>
        <Group gap="sm">
          <SegmentedControl
            aria-label="Show deliveries"
            size="xs"
            value={status}
            onChange={(value) => setStatus(value as Filter)}
            data={[
              { value: '', label: 'All' },
              { value: 'pending', label: 'Pending' },
              { value: 'succeeded', label: 'Succeeded' },
              { value: 'failed', label: 'Failed' },
            ]}
          />
          <Button variant="subtle" size="xs" onClick={() => void loadFirst()}>
            Refresh
          </Button>
        </Group>
      </Group>
      <Stack gap="sm">
        <ErrorNotice error={error} title="The deliveries could not be loaded" />
        <ErrorNotice error={actionError} title="The event was not replayed" />
        {alreadyPending && (
          <Alert
            color="gray"
            variant="light"
            role="status"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setAlreadyPending(false)}
          >
            That event is already on its way to this URL; nothing more was queued.
          </Alert>
        )}
        {!items ? (
          <Loading />
        ) : (
          <Paper withBorder radius="md">
            <Table striped verticalSpacing="sm" data-testid="delivery-log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Last answer</Table.Th>
                  <Table.Th>Next attempt</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((delivery) => (
                  <Table.Tr key={delivery.id} data-delivery-id={delivery.id}>
                    <Table.Td>{formatDateTime(delivery.createdAt)}</Table.Td>
                    <Table.Td className="mono">{delivery.event}</Table.Td>
                    <Table.Td>
                      <DeliveryStatusBadge status={delivery.status} />
                    </Table.Td>
                    <Table.Td>{delivery.attempts}</Table.Td>
                    <Table.Td>
                      <Text size="sm" className="mono">
                        {delivery.lastStatusCode ?? lastAnswerWithoutStatus(delivery)}
                      </Text>
                      {delivery.lastError && (
                        <Text size="xs" c="red.9" lineClamp={2} title={delivery.lastError}>
                          {delivery.lastError}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{delivery.nextAttemptAt ? formatRelative(delivery.nextAttemptAt) : '—'}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button
                          variant="subtle"
                          size="xs"
                          onClick={() => setOpened(delivery)}
                          aria-label={`Attempts of delivery ${delivery.id}`}
                        >
                          Attempts
                        </Button>
                        {props.canReplay && delivery.status !== 'pending' && (
                          <Button
                            variant="light"
                            size="xs"
                            onClick={() => void replay(delivery)}
                            aria-label={`Replay event ${delivery.event} of delivery ${delivery.id}`}
                          >
                            Replay
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {items.length === 0 && (
              <Text c="dimmed" ta="center" py="lg">
                {status ? `No ${status} deliveries.` : 'No deliveries yet. Send a test event to see one.'}
              </Text>
            )}
          </Paper>
        )}
        {nextCursor && (
          <Group justify="center">
            <Button variant="default" onClick={loadMore} loading={loadingMore}>
              Load older deliveries
            </Button>
          </Group>
        )}
      </Stack>
      {opened && (
        <AttemptsDialog subscriptionId={subscriptionId} delivery={opened} onClose={() => setOpened(undefined)} />
      )}
    </section>
  );
}

/** A delivery's last answer when it has no HTTP status: a broker's confirm, none yet, or no answer at all. */
function lastAnswerWithoutStatus(delivery: { status: string; attempts: number }): string {
  if (delivery.status === 'succeeded') return 'confirmed';
  return delivery.attempts ? 'no answer' : '—';
}
