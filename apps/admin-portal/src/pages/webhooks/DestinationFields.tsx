import { Group, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { WebhookInput, WebhookSubscription } from '../../api';

export type DestinationKind = 'http' | 'rabbitmq' | 'nats';

/** The form's destination fields: the URL of every kind, and each broker's own. */
export interface DestinationValues {
  kind: DestinationKind;
  url: string;
  exchange: string;
  routingKey: string;
  stream: string;
  subject: string;
  natsUser: string;
  natsPass: string;
}

const DEFAULT_TEMPLATE = 'wms.{event}.{documentKey}';

export function initialDestination(subscription?: WebhookSubscription): DestinationValues {
  const destination = subscription?.destination;
  return {
    kind: destination?.kind ?? 'http',
    url: subscription?.url ?? '',
    exchange: destination?.exchange ?? '',
    routingKey: destination?.routingKey ?? DEFAULT_TEMPLATE,
    stream: destination?.stream ?? '',
    subject: destination?.subject ?? DEFAULT_TEMPLATE,
    natsUser: '',
    natsPass: '',
  };
}

/**
 * Where the request sends deliveries: `url` for HTTP, else the whole `destination`. A broker's URL read back
 * shows its password as ****: changing a broker destination needs the URL with its password again.
 */
export function destinationRequest(
  values: DestinationValues,
): { url: string } | { destination: NonNullable<WebhookInput['destination']> } | { problem: string } {
  const url = values.url.trim();
  if (values.kind === 'http') return { url };
  if (url.includes(':****@')) return { problem: 'Give the broker URL with its password to change the destination' };
  if (values.kind === 'rabbitmq') {
    return {
      destination: { kind: 'rabbitmq', url, exchange: values.exchange.trim(), routingKey: values.routingKey.trim() },
    };
  }
  return {
    destination: {
      kind: 'nats',
      url,
      stream: values.stream.trim(),
      subject: values.subject.trim(),
      ...(values.natsUser && { credentials: { user: values.natsUser, pass: values.natsPass } }),
    },
  };
}

const URL_FIELD: Record<DestinationKind, { label: string; description: string; placeholder: string }> = {
  http: {
    label: 'URL',
    description: 'Where the signed POST requests go; https in production',
    placeholder: 'https://erp.example.com/hooks/wms',
  },
  rabbitmq: {
    label: 'AMQP URL',
    description: 'amqp:// or amqps://, with user, password and vhost; the password is stored encrypted and never shown',
    placeholder: 'amqp://erp:password@mq.example.com:5672/wms',
  },
  nats: {
    label: 'NATS server URL',
    description: 'nats:// or tls://; credentials below are stored encrypted and never shown',
    placeholder: 'nats://nats.example.com:4222',
  },
};

/** The destination kind selector and the fields of the chosen kind. */
export function DestinationFields(props: { value: DestinationValues; onChange: (value: DestinationValues) => void }) {
  const { value } = props;
  const set = <K extends keyof DestinationValues>(field: K, next: DestinationValues[K]) =>
    props.onChange({ ...value, [field]: next });
  const urlField = URL_FIELD[value.kind];
  return (
    <Stack gap="sm">
      <Stack gap={4}>
        <Text size="sm" fw={500} id="destination-kind">
          Destination
        </Text>
        <SegmentedControl
          aria-labelledby="destination-kind"
          maw={420}
          value={value.kind}
          onChange={(kind) => set('kind', kind as DestinationKind)}
          data={[
            { value: 'http', label: 'HTTP endpoint' },
            { value: 'rabbitmq', label: 'RabbitMQ' },
            { value: 'nats', label: 'NATS JetStream' },
          ]}
        />
      </Stack>
      <TextInput
        label={urlField.label}
        description={urlField.description}
        placeholder={urlField.placeholder}
        required
        type={value.kind === 'http' ? 'url' : 'text'}
        value={value.url}
        onChange={(event) => set('url', event.currentTarget.value)}
      />
      {value.kind === 'rabbitmq' && (
        <Group grow align="flex-start">
          <TextInput
            label="Exchange"
            description="An existing exchange; bind your queues to it"
            required
            value={value.exchange}
            onChange={(event) => set('exchange', event.currentTarget.value)}
          />
          <TextInput
            label="Routing key"
            description="Template: {event}, {documentKey}, {tenantId}"
            classNames={{ input: 'mono' }}
            value={value.routingKey}
            onChange={(event) => set('routingKey', event.currentTarget.value)}
          />
        </Group>
      )}
      {value.kind === 'nats' && (
        <>
          <Group grow align="flex-start">
            <TextInput
              label="Stream"
              description="An existing JetStream stream taking the subjects"
              required
              value={value.stream}
              onChange={(event) => set('stream', event.currentTarget.value)}
            />
            <TextInput
              label="Subject"
              description="Template: {event}, {documentKey}, {tenantId}"
              classNames={{ input: 'mono' }}
              value={value.subject}
              onChange={(event) => set('subject', event.currentTarget.value)}
            />
          </Group>
          <Group grow align="flex-start">
            <TextInput
              label="NATS user"
              description="Optional"
              autoComplete="off"
              value={value.natsUser}
              onChange={(event) => set('natsUser', event.currentTarget.value)}
            />
            <PasswordInput
              label="NATS password"
              autoComplete="new-password"
              value={value.natsPass}
              onChange={(event) => set('natsPass', event.currentTarget.value)}
            />
          </Group>
        </>
      )}
    </Stack>
  );
}
