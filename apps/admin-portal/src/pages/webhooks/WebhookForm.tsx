import { Alert, Button, Checkbox, Group, NumberInput, Paper, Stack, Switch, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import {
  ApiError,
  webhooksApi,
  type EventType,
  type FilterTestInput,
  type Tenant,
  type WebhookSubscription,
} from '../../api';
import { ApiVersionSelect, Loading, TenantField } from '../../components';
import classes from './WebhookForm.module.css';
import { DestinationFields, initialDestination, type DestinationValues } from './DestinationFields';

export const ALL_EVENTS = '*';

export interface WebhookFormValues {
  /** Where deliveries go: an HTTP URL, or a RabbitMQ or NATS destination. */
  destination: DestinationValues;
  events: string[];
  description: string;
  tenantId: string;
  /** The filter as JSON text; empty: no filter. */
  filter: string;
  /** Empty: no limit. */
  maxDeliveriesPerSecond: number | '';
  ordered: boolean;
  /** The dated API version its bodies are rendered in; empty: the deployment's default. */
  apiVersion: string;
}

export function initialValues(subscription?: WebhookSubscription): WebhookFormValues {
  return {
    destination: initialDestination(subscription),
    events: subscription?.events ?? [],
    description: subscription?.description ?? '',
    tenantId: subscription?.tenantId ?? '',
    filter: subscription?.filter ? JSON.stringify(subscription.filter, null, 2) : '',
    maxDeliveriesPerSecond: subscription?.maxDeliveriesPerSecond ?? '',
    ordered: subscription?.ordered ?? false,
    apiVersion: subscription?.apiVersion ?? '',
  };
}

/** The filter text as the API takes it: null when empty; a message when it is not a JSON object. */
export function parseFilter(text: string): { filter: Record<string, unknown> | null } | { problem: string } {
  if (!text.trim()) return { filter: null };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { problem: 'The filter must be a JSON object' };
    return { filter: value as Record<string, unknown> };
  } catch {
    return { problem: 'The filter is not valid JSON' };
  }
}

/** The filter field, with a test of the filter against the latest events of the subscription's tenant. */
function FilterEditor(props: { value: string; events: string[]; tenantId: string; onChange: (text: string) => void }) {
  const [result, setResult] = useState<{ tone: 'blue' | 'red'; text: string }>();
  const [busy, setBusy] = useState(false);
  const test = async () => {
    const parsed = parseFilter(props.value);
    if ('problem' in parsed) return setResult({ tone: 'red', text: parsed.problem });
    if (!parsed.filter) return setResult({ tone: 'blue', text: 'No filter: every event of the chosen types is sent' });
    setBusy(true);
    try {
      const answer = await webhooksApi.filterTest({
        filter: parsed.filter,
        // The names the form offers are the API's own event-type catalogue.
        events: props.events.length ? (props.events as FilterTestInput['events']) : undefined,
        tenantId: props.tenantId || undefined,
        limit: 50,
      });
      setResult({
        tone: 'blue',
        text:
          answer.tested === 0
            ? 'No recent events to try the filter on'
            : `Would have matched ${answer.matched} of the latest ${answer.tested} events`,
      });
    } catch (failure) {
      const detail = failure instanceof ApiError ? failure.details.find((entry) => entry.path === 'filter') : undefined;
      setResult({
        tone: 'red',
        text: detail?.message ?? (failure instanceof Error ? failure.message : 'The filter could not be tested'),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={6}>
      <Textarea
        label="Filter"
        description='Optional: a MongoDB-style query over the event data, e.g. { "warehouseCode": { "$in": ["MAIN"] } }. Operators: $eq $ne $in $nin $gt $gte $lt $lte $exists $not $and $or $nor'
        classNames={{ input: 'mono' }}
        autosize
        minRows={3}
        value={props.value}
        onChange={(event) => {
          setResult(undefined);
          props.onChange(event.currentTarget.value);
        }}
      />
      <Group gap="sm">
        <Button variant="light" size="xs" loading={busy} onClick={test}>
          Test against recent events
        </Button>
      </Group>
      {result && (
        <Alert color={result.tone} variant="light" role="status">
          {result.text}
        </Alert>
      )}
    </Stack>
  );
}

/** Every event the subscription may ask for, one checkbox each; "all business events" covers those `*` includes. */
function EventPicker(props: { eventTypes: EventType[]; value: string[]; onChange: (events: string[]) => void }) {
  const wildcard = props.value.includes(ALL_EVENTS);
  const change = (events: string[]) => {
    const covered = new Set(props.eventTypes.filter((type) => type.includedInWildcard).map((type) => type.name));
    props.onChange(events.includes(ALL_EVENTS) ? events.filter((event) => !covered.has(event)) : events);
  };
  return (
    <Checkbox.Group
      label="Events"
      description="The events this URL receives; a test event can always be sent"
      withAsterisk
      value={props.value}
      onChange={change}
    >
      <div className={classes.wildcard}>
        <Checkbox value={ALL_EVENTS} label="All business events" description="Includes events added later" />
      </div>
      <div className={classes.events}>
        {props.eventTypes.map((type) => (
          <Checkbox
            key={type.name}
            value={type.name}
            label={<span className="mono">{type.name}</span>}
            aria-label={type.name}
            description={type.description}
            disabled={wildcard && type.includedInWildcard}
          />
        ))}
      </div>
    </Checkbox.Group>
  );
}

/**
 * A subscription's fields; the tenant only when creating (it cannot change). Disabling and enabling are the
 * detail page's actions, not a field.
 */
export function WebhookForm(props: {
  initial: WebhookFormValues;
  eventTypes: EventType[] | undefined;
  mode: 'create' | 'edit';
  tenants: Tenant[] | null;
  submitLabel: string;
  error?: ReactNode;
  onSubmit: (values: WebhookFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof WebhookFormValues>(field: K, value: WebhookFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit(values);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Paper withBorder radius="md" p="lg" maw={820}>
        <Stack gap="md">
          {props.error}
          <DestinationFields value={values.destination} onChange={(destination) => set('destination', destination)} />
          {props.eventTypes ? (
            <EventPicker
              eventTypes={props.eventTypes}
              value={values.events}
              onChange={(events) => set('events', events)}
            />
          ) : (
            <Loading label="Loading event types" />
          )}
          <FilterEditor
            value={values.filter}
            events={values.events}
            tenantId={values.tenantId}
            onChange={(filter) => set('filter', filter)}
          />
          <NumberInput
            label="Max deliveries per second"
            description="Optional: the most requests this URL is sent per second, over every worker"
            placeholder="No limit"
            min={1}
            max={10000}
            allowDecimal={false}
            maw={320}
            value={values.maxDeliveriesPerSecond}
            onChange={(value) => set('maxDeliveriesPerSecond', typeof value === 'number' ? value : '')}
          />
          <Switch
            label="Ordered per document"
            description="Events of one order, ASN or stock position go out one at a time, in sequence order; a failing one holds back only its own document"
            checked={values.ordered}
            onChange={(event) => set('ordered', event.currentTarget.checked)}
          />
          <ApiVersionSelect
            description="The dated version its deliveries, test deliveries and replays are rendered in."
            maw={480}
            value={values.apiVersion}
            onChange={(value) => set('apiVersion', value)}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            value={values.description}
            onChange={(event) => set('description', event.currentTarget.value)}
          />
          {props.mode === 'create' && (
            <>
              <TenantField
                value={values.tenantId}
                onChange={(tenantId) => set('tenantId', tenantId)}
                tenants={props.tenants}
                description="A subscription bound to a tenant receives that tenant's events only"
              />
              <Text size="sm" c="dimmed">
                The signing secret is shown once, right after the subscription is created.
              </Text>
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
