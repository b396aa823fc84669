import { Button, Code, CopyButton, Group, Text } from '@mantine/core';

/** A value shown once (a raw API key, a signing secret) under its label, with a copy button beside it. */
export function CopyableValue(props: { id: string; label: string; value: string; copyLabel: string; testId: string }) {
  return (
    <div>
      <Text size="sm" fw={500} id={props.id} mb={4}>
        {props.label}
      </Text>
      <Group gap="sm" wrap="nowrap">
        <Code block aria-labelledby={props.id} data-testid={props.testId} style={{ flex: 1, fontSize: 15 }}>
          {props.value}
        </Code>
        <CopyButton value={props.value}>
          {({ copied, copy }) => (
            <Button color={copied ? 'teal' : undefined} onClick={copy} variant={copied ? 'filled' : 'light'}>
              {copied ? 'Copied' : props.copyLabel}
            </Button>
          )}
        </CopyButton>
      </Group>
    </div>
  );
}
