import { Code, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { webhooksApi, type CreatedWebhookSubscription, type WebhookInput } from '../../api';
import { usePrincipal } from '../../auth';
import { ErrorNotice, PageHeader, useApi, useTenants } from '../../components';
import { loadEventTypes } from './event-types';
import { SecretOnce } from './SecretOnce';
import { WebhookForm, initialValues, parseFilter } from './WebhookForm';
import { destinationRequest } from './DestinationFields';

/** Registers a subscription; on success its signing secret is shown this once. */
export default function CreateWebhookPage() {
  const principal = usePrincipal();
  const navigate = useNavigate();
  const tenants = useTenants();
  const eventTypes = useApi(['webhooks', 'event-types'], loadEventTypes);
  const [error, setError] = useState<unknown>();
  const [created, setCreated] = useState<CreatedWebhookSubscription>();

  if (created) {
    return (
      <>
        <PageHeader title="Subscription created" />
        <SecretOnce
          title={
            <Text size="sm">
              Requests to <Code>{created.url}</Code> are signed with this secret (Standard Webhooks).
            </Text>
          }
          secret={created.secret}
          doneLabel="I have copied the secret"
          onDone={() => navigate(`/webhooks/${created.id}`, { replace: true })}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader title="Create webhook subscription" description="Signed POST requests for the events you choose." />
      <ErrorNotice error={eventTypes.error} title="The event types could not be loaded" />
      <WebhookForm
        mode="create"
        initial={{ ...initialValues(), tenantId: principal.tenantId ?? '' }}
        eventTypes={eventTypes.data}
        tenants={tenants}
        submitLabel="Create subscription"
        error={<ErrorNotice error={error} title="The subscription was not created" />}
        onCancel={() => navigate('/webhooks')}
        onSubmit={async (values) => {
          setError(undefined);
          const parsed = parseFilter(values.filter);
          if ('problem' in parsed) return setError(new Error(parsed.problem));
          const address = destinationRequest(values.destination);
          if ('problem' in address) return setError(new Error(address.problem));
          try {
            setCreated(
              await webhooksApi.create({
                ...address,
                // The names the form offers are the API's own event-type catalogue.
                events: values.events as WebhookInput['events'],
                description: values.description,
                tenantId: values.tenantId || null,
                filter: parsed.filter,
                maxDeliveriesPerSecond: values.maxDeliveriesPerSecond === '' ? null : values.maxDeliveriesPerSecond,
                ordered: values.ordered,
                apiVersion: (values.apiVersion || undefined) as WebhookInput['apiVersion'],
              }),
            );
          } catch (failure) {
            setError(failure);
          }
        }}
      />
    </>
  );
}
