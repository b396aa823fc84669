import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { webhooksApi, type RecoverResult } from '../../api';
import { ErrorNotice, formatDateTime, formatNumber } from '../../components';

/** How far back a recover may reach (the API refuses an older `since`). */
const WINDOW_DAYS = 14;

/** `datetime-local` text of an instant, in the browser's time zone. */
function localInput(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function recoveredText(result: RecoverResult): string {
  const queued =
    result.recovered === 0
      ? 'No failed delivery was left to queue'
      : `${formatNumber(result.recovered)} failed ${result.recovered === 1 ? 'delivery' : 'deliveries'} queued again`;
  const window = `between ${formatDateTime(result.since)} and ${formatDateTime(result.until)}`;
  const rest =
    result.remaining > 0
      ? ` ${formatNumber(result.remaining)} more failed in that window: one call queues at most ${formatNumber(result.limit)}.`
      : '';
  return `${queued} ${window}.${rest}`;
}

/**
 * Queues again the subscription's failed deliveries of a window (since, until), at most 14 days back and at
 * most `limit` a call; what was queued and what is left is answered, and the rest is one click away.
 */
export function RecoverForm(props: { subscriptionId: string; active: boolean; onRecovered: () => void }) {
  const now = new Date();
  const [since, setSince] = useState(() => localInput(new Date(now.getTime() - 24 * 3_600_000)));
  const [until, setUntil] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [result, setResult] = useState<RecoverResult>();

  const recover = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const window = { since: new Date(since).toISOString(), until: until ? new Date(until).toISOString() : undefined };
      setResult(await webhooksApi.recover(props.subscriptionId, window));
      props.onRecovered();
    } catch (failure) {
      setResult(undefined);
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="recover-title">
      <Title order={2} size="h4" id="recover-title" mb={4}>
        Recover failed deliveries
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        After the receiver was down, queue again every delivery that failed in a window (at most {WINDOW_DAYS} days
        back). Recovered deliveries run after live traffic, with their original <span className="mono">webhook-id</span>
        .
      </Text>
      <form onSubmit={recover} noValidate>
        <Stack gap="sm">
          <Group align="flex-end" gap="md">
            <TextInput
              label="Failed since"
              description={`At most ${WINDOW_DAYS} days back`}
              type="datetime-local"
              required
              min={localInput(new Date(now.getTime() - WINDOW_DAYS * 86_400_000))}
              max={localInput(now)}
              value={since}
              onChange={(event) => setSince(event.currentTarget.value)}
            />
            <TextInput
              label="Until"
              description="Empty: up to now"
              type="datetime-local"
              value={until}
              onChange={(event) => setUntil(event.currentTarget.value)}
            />
            <Button type="submit" loading={busy} disabled={!props.active || !since}>
              Recover failed deliveries
            </Button>
          </Group>
          {!props.active && (
            <Text size="sm" c="dimmed">
              Enable the subscription first: nothing is sent while it is disabled.
            </Text>
          )}
          <ErrorNotice error={error} title="Nothing was recovered" />
          {result && (
            <Alert
              color={result.recovered ? 'blue' : 'gray'}
              variant="light"
              role="status"
              data-testid="recover-result"
            >
              <Stack gap="xs" align="flex-start">
                <span>{recoveredText(result)}</span>
                {result.remaining > 0 && (
                  <Button size="xs" variant="light" loading={busy} onClick={() => void recover()}>
                    Queue the next {formatNumber(Math.min(result.remaining, result.limit))}
                  </Button>
                )}
              </Stack>
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
