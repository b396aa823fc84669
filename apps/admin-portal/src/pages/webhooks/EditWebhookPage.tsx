import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { webhooksApi } from '../../api';
import { ErrorNotice, Loading, PageHeader, useApi } from '../../components';
import { loadEventTypes } from './event-types';
import { WebhookForm, initialValues, parseFilter, type WebhookFormValues } from './WebhookForm';
import { destinationRequest } from './DestinationFields';

/** Edits URL, events and description; only what changed is sent. The tenant is fixed at creation. */
export default function EditWebhookPage() {
  const id = useParams().id!;
  const navigate = useNavigate();
  const subscription = useApi(['webhooks', id], () => webhooksApi.get(id));
  const eventTypes = useApi(['webhooks', 'event-types'], loadEventTypes);
  const [error, setError] = useState<unknown>();

  if (subscription.error)
    return <ErrorNotice error={subscription.error} title="The subscription could not be loaded" />;
  if (!subscription.data) return <Loading />;
  const before = initialValues(subscription.data);

  return (
    <>
      <PageHeader title="Edit webhook subscription" description={subscription.data.url} />
      <ErrorNotice error={eventTypes.error} title="The event types could not be loaded" />
      <WebhookForm
        mode="edit"
        initial={before}
        eventTypes={eventTypes.data}
        tenants={null}
        submitLabel="Save changes"
        error={<ErrorNotice error={error} title="The changes were not saved" />}
        onCancel={() => navigate(`/webhooks/${id}`)}
        onSubmit={async (values) => {
          setError(undefined);
          const parsed = parseFilter(values.filter);
          if ('problem' in parsed) return setError(new Error(parsed.problem));
          const fields: Array<keyof WebhookFormValues> = [
            'events',
            'description',
            'filter',
            'maxDeliveriesPerSecond',
            'ordered',
            'apiVersion',
          ];
          const sent = {
            ...values,
            filter: parsed.filter,
            maxDeliveriesPerSecond: values.maxDeliveriesPerSecond === '' ? null : values.maxDeliveriesPerSecond,
          };
          const patch: Record<string, unknown> = Object.fromEntries(
            fields
              .filter((field) => JSON.stringify(values[field]) !== JSON.stringify(before[field]))
              .map((field) => [field, sent[field]]),
          );
          if (JSON.stringify(values.destination) !== JSON.stringify(before.destination)) {
            const address = destinationRequest(values.destination);
            if ('problem' in address) return setError(new Error(address.problem));
            Object.assign(patch, address);
          }
          try {
            if (Object.keys(patch).length) await webhooksApi.update(id, patch);
            navigate(`/webhooks/${id}`);
          } catch (failure) {
            setError(failure);
          }
        }}
      />
    </>
  );
}
