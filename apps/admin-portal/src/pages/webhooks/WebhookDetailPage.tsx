import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { webhooksApi, type WebhookSubscription } from '../../api';
import { usePermission } from '../../auth';
import {
  ConfirmButton,
  ErrorNotice,
  Fact,
  Facts,
  Loading,
  PageHeader,
  formatDateTime,
  tenantLabel,
  useApi,
  useTenants,
} from '../../components';
import { DeliveryLog } from './DeliveryLog';
import { EventBadges } from './EventBadges';
import { WebhookStatusBadge } from './WebhookStatusBadge';

function Settings({ subscription }: { subscription: WebhookSubscription }) {
  const tenants = useTenants();
  return (
    <Facts title="Settings">
      <Fact term="URL">
        <span className="mono">{subscription.url}</span>
      </Fact>
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
      </Fact>
      <Fact term="Created">{formatDateTime(subscription.createdAt)}</Fact>
      <Fact term="Changed">{formatDateTime(subscription.updatedAt)}</Fact>
    </Facts>
  );
}

/** One subscription: its settings, the actions on it (test, edit, disable, delete) and its delivery log. */
export default function WebhookDetailPage() {
  const id = useParams().id!;
  const navigate = useNavigate();
  const { write } = usePermission('webhooks');
  const subscription = useApi(() => webhooksApi.get(id), [id]);
  const [logVersion, setLogVersion] = useState(0);
  const [testError, setTestError] = useState<unknown>();
  const [testSent, setTestSent] = useState(false);

  if (subscription.error)
    return <ErrorNotice error={subscription.error} title="The subscription could not be loaded" />;
  if (!subscription.data) return <Loading />;
  const current = subscription.data;

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
                    : 'Events are sent to this URL again from now on.'
                }
                confirmLabel={current.active ? 'Disable subscription' : 'Enable subscription'}
                color={current.active ? 'orange' : 'green'}
                onConfirm={() => webhooksApi.update(id, { active: !current.active })}
                onDone={subscription.reload}
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
      {!current.active && (
        <Alert color={current.disabledReason ? 'red' : 'gray'} variant="light" title="Disabled">
          {current.disabledReason ?? 'Disabled by hand.'} Nothing is sent until it is enabled again.
        </Alert>
      )}
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
      <DeliveryLog subscriptionId={id} canRedeliver={write && current.active} refreshKey={logVersion} />
    </Stack>
  );
}
