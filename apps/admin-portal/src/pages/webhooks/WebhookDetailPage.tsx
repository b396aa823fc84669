import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { webhooksApi, type CreatedWebhookSubscription, type WebhookSubscription } from '../../api';
import { usePermission } from '../../auth';
import {
  ConfirmButton,
  ErrorNotice,
  Fact,
  Facts,
  Loading,
  PageHeader,
  formatDateTime,
  formatRelative,
  tenantLabel,
  useApi,
  useTenants,
} from '../../components';
import { AuditTable } from '../audit';
import { DeliveryLog } from './DeliveryLog';
import { EventBadges } from './EventBadges';
import { RecoverForm } from './RecoverForm';
import { RotateSecretButton, SigningState, rotationNote } from './SecretRotation';
import { SecretOnce } from './SecretOnce';
import { WebhookStatusBadge } from './WebhookStatusBadge';

const DESTINATION_LABEL = { http: 'HTTP endpoint', rabbitmq: 'RabbitMQ exchange', nats: 'NATS JetStream stream' };

function Settings({ subscription }: { subscription: WebhookSubscription }) {
  const tenants = useTenants();
  return (
    <Facts title="Settings">
      <Fact term="Destination">{DESTINATION_LABEL[subscription.destination?.kind ?? 'http']}</Fact>
      <Fact term="URL">
        <span className="mono">{subscription.url}</span>
      </Fact>
      {subscription.destination?.kind === 'rabbitmq' && (
        <Fact term="Exchange and routing key">
          <span className="mono">
            {subscription.destination.exchange} · {subscription.destination.routingKey}
          </span>
        </Fact>
      )}
      {subscription.destination?.kind === 'nats' && (
        <Fact term="Stream and subject">
          <span className="mono">
            {subscription.destination.stream} · {subscription.destination.subject}
          </span>
        </Fact>
      )}
      <Fact term="Events">
        <EventBadges events={subscription.events} />
      </Fact>
      <Fact term="Tenant">{tenantLabel(subscription.tenantId, tenants)}</Fact>
      <Fact term="Description">
        {subscription.description || (
          <Text span c="dimmed">
            none
          </Text>
        )}
      </Fact>
      <Fact term="Status">
        <WebhookStatusBadge subscription={subscription} />
        {subscription.active && subscription.failingSince && (
          <Text span size="sm" c="red.9" ml="xs">
            every delivery has failed since {formatDateTime(subscription.failingSince)}
          </Text>
        )}
      </Fact>
      <Fact term="API version">
        <span className="mono" data-testid="webhook-api-version">
          {subscription.apiVersion}
        </span>
      </Fact>
      <Fact term="Signing">
        <SigningState subscription={subscription} />
      </Fact>
      <Fact term="Created">{formatDateTime(subscription.createdAt)}</Fact>
      <Fact term="Changed">{formatDateTime(subscription.updatedAt)}</Fact>
    </Facts>
  );
}

/** Why and when a subscription is disabled: by the service (410 Gone, failing too long) or by hand. */
function DisabledNotice({ subscription }: { subscription: WebhookSubscription }) {
  if (!subscription.disabledReason)
    return (
      <Alert color="gray" variant="light" title="Disabled by hand" data-testid="disabled-notice">
        Nothing is sent until it is enabled again.
      </Alert>
    );
  return (
    <Alert color="red" variant="light" title="Disabled by the service" data-testid="disabled-notice">
      <Text size="sm">
        {subscription.disabledAt && (
          <>
            On {formatDateTime(subscription.disabledAt)} ({formatRelative(subscription.disabledAt)}):{' '}
          </>
        )}
        {subscription.disabledReason}.
      </Text>
      <Text size="sm">
        Nothing is sent until it is enabled again; deliveries that failed meanwhile can then be recovered below.
      </Text>
    </Alert>
  );
}

/**
 * One subscription: its settings, the actions on it (test, rotate the secret, edit, disable or enable,
 * delete), the recovery of failed deliveries and the delivery log with replay.
 */
export default function WebhookDetailPage() {
  const id = useParams().id!;
  const navigate = useNavigate();
  const { write } = usePermission('webhooks');
  const audit = usePermission('audit');
  const subscription = useApi(['webhooks', id], () => webhooksApi.get(id));
  const trail = useApi(['audit', 'webhook_subscription', id, audit.read], () =>
    audit.read ? webhooksApi.auditTrail(id) : Promise.resolve(null),
  );
  const [logVersion, setLogVersion] = useState(0);
  const [testError, setTestError] = useState<unknown>();
  const [testSent, setTestSent] = useState(false);
  const [rotated, setRotated] = useState<CreatedWebhookSubscription>();
  const refresh = () => {
    subscription.reload();
    trail.reload();
  };

  if (subscription.error)
    return <ErrorNotice error={subscription.error} title="The subscription could not be loaded" />;
  if (!subscription.data) return <Loading />;
  const current = subscription.data;

  if (rotated)
    return (
      <>
        <PageHeader title="Signing secret rotated" description={<span className="mono">{current.url}</span>} />
        <SecretOnce
          title={<Text fw={500}>The new signing secret</Text>}
          secret={rotated.secret}
          note={
            <Text size="sm" data-testid="rotation-note">
              {rotationNote(rotated)}
            </Text>
          }
          doneLabel="I have copied the secret"
          onDone={() => {
            setRotated(undefined);
            refresh();
          }}
        />
      </>
    );

  const sendTest = async () => {
    setTestError(undefined);
    setTestSent(false);
    try {
      await webhooksApi.sendTest(id);
      setTestSent(true);
      setLogVersion((version) => version + 1);
    } catch (failure) {
      setTestError(failure);
    }
  };

  return (
    <Stack gap="lg">
      <PageHeader
        title="Webhook subscription"
        description={<span className="mono">{current.url}</span>}
        actions={
          write && (
            <>
              <Button variant="light" onClick={sendTest} disabled={!current.active}>
                Send test event
              </Button>
              <RotateSecretButton subscription={current} onRotated={setRotated} />
              <Button variant="default" component={Link} to={`/webhooks/${id}/edit`}>
                Edit
              </Button>
              <ConfirmButton
                key={current.active ? 'disable' : 'enable'}
                label={current.active ? 'Disable' : 'Enable'}
                title={current.active ? 'Disable this subscription?' : 'Enable this subscription?'}
                message={
                  current.active
                    ? 'Nothing is sent to this URL while it is disabled. Deliveries already queued end as failed.'
                    : 'Events are sent to this URL again from now on. The reason it was disabled is cleared; deliveries that failed meanwhile can be recovered.'
                }
                confirmLabel={current.active ? 'Disable subscription' : 'Enable subscription'}
                color={current.active ? 'orange' : 'green'}
                onConfirm={() => (current.active ? webhooksApi.update(id, { active: false }) : webhooksApi.enable(id))}
                onDone={refresh}
              />
              <ConfirmButton
                label="Delete"
                title="Delete this subscription?"
                message={
                  <>
                    <span className="mono">{current.url}</span> will receive no more events, and its delivery log is
                    deleted with it. This cannot be undone.
                  </>
                }
                confirmLabel="Delete subscription"
                color="red"
                variant="outline"
                onConfirm={() => webhooksApi.remove(id)}
                onDone={() => navigate('/webhooks', { replace: true })}
              />
            </>
          )
        }
      />
      {!current.active && <DisabledNotice subscription={current} />}
      <ErrorNotice error={testError} title="The test event was not sent" />
      {testSent && (
        <Alert
          color="blue"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setTestSent(false)}
        >
          A <span className="mono">webhook.test</span> event is on its way; its delivery appears below.
        </Alert>
      )}
      <Settings subscription={current} />
      {write && (
        <RecoverForm
          subscriptionId={id}
          active={current.active}
          onRecovered={() => {
            setLogVersion((version) => version + 1);
            trail.reload();
          }}
        />
      )}
      <DeliveryLog
        subscriptionId={id}
        canReplay={write && current.active}
        refreshKey={logVersion}
        onSettled={refresh}
      />
      {audit.read && (
        <section aria-labelledby="trail-title">
          <Title order={2} size="h4" id="trail-title" mb="sm">
            Audit trail
          </Title>
          <ErrorNotice error={trail.error} />
          {trail.data ? <AuditTable entries={trail.data} /> : <Loading />}
        </section>
      )}
    </Stack>
  );
}
