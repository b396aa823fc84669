import { Alert, Code, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CopyableValue } from '../../components';

/**
 * A raw key shown this once (after creation or a roll), held only in the page's memory, with a copy button,
 * a warning, and what to do next.
 */
export function RawKeyOnce(props: { rawKey: string; note?: ReactNode; actions: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg" maw={760}>
      <Stack gap="md">
        <Alert color="orange" title="Copy the key now" role="alert">
          This is the only time the key is shown. It is not stored in readable form and cannot be shown again; if it is
          lost, roll the key again.
        </Alert>
        <CopyableValue id="raw-key-label" label="API key" value={props.rawKey} copyLabel="Copy key" testId="raw-key" />
        <Text size="sm" c="dimmed">
          Send it as the <Code>X-API-Key</Code> header (or <Code>Authorization: ApiKey …</Code>).
        </Text>
        {props.note}
        <Group justify="flex-end">{props.actions}</Group>
      </Stack>
    </Paper>
  );
}
