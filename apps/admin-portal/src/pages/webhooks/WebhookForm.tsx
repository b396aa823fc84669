import { Button, Checkbox, Group, Paper, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { EventType, Tenant, WebhookSubscription } from '../../api';
import { Loading, TenantField } from '../../components';
import classes from './WebhookForm.module.css';

export const ALL_EVENTS = '*';

export interface WebhookFormValues {
  url: string;
  events: string[];
  description: string;
  tenantId: string;
}

export function initialValues(subscription?: WebhookSubscription): WebhookFormValues {
  return {
    url: subscription?.url ?? '',
    events: subscription?.events ?? [],
    description: subscription?.description ?? '',
    tenantId: subscription?.tenantId ?? '',
  };
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
          <TextInput
            label="URL"
            description="Where the signed POST requests go; https in production"
            placeholder="https://erp.example.com/hooks/wms"
            required
            type="url"
            value={values.url}
            onChange={(event) => set('url', event.currentTarget.value)}
          />
          {props.eventTypes ? (
            <EventPicker
              eventTypes={props.eventTypes}
              value={values.events}
              onChange={(events) => set('events', events)}
            />
          ) : (
            <Loading label="Loading event types" />
          )}
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
