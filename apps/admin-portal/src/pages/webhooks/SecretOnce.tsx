import { Alert, Button, Code, Group, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { CopyableValue } from '../../components';

/** A signing secret shown this once, held only in the page's memory, with a copy button and what to do with it. */
export function SecretOnce(props: {
  title: ReactNode;
  secret: string;
  doneLabel: string;
  onDone: () => void;
  note?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="lg" maw={760}>
      <Stack gap="md">
        <Alert color="orange" title="Copy the signing secret now" role="alert">
          This is the only time the secret is shown; it cannot be shown again. The subscriber needs it to verify the
          <Code>webhook-signature</Code> header of every request.
        </Alert>
        {props.title}
        <CopyableValue
          id="secret-label"
          label="Signing secret"
          value={props.secret}
          copyLabel="Copy secret"
          testId="webhook-secret"
        />
        {props.note}
        <Group justify="flex-end">
          <Button onClick={props.onDone}>{props.doneLabel}</Button>
        </Group>
      </Stack>
    </Paper>
  );
}
