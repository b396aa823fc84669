import { Badge, Tooltip } from '@mantine/core';
import type { WebhookSubscription } from '../../api';

/** Active, disabled by hand, or disabled by the service (with the reason on hover). */
export function WebhookStatusBadge({ subscription }: { subscription: WebhookSubscription }) {
  if (subscription.active) {
    return (
      <Badge color="green" variant="light">
        active
      </Badge>
    );
  }
  const badge = (
    <Badge color={subscription.disabledReason ? 'red' : 'gray'} variant="light">
      disabled
    </Badge>
  );
  return subscription.disabledReason ? <Tooltip label={subscription.disabledReason}>{badge}</Tooltip> : badge;
}

const DELIVERY_COLORS = { pending: 'yellow', succeeded: 'green', failed: 'red' } as const;

export function DeliveryStatusBadge({ status }: { status: keyof typeof DELIVERY_COLORS }) {
  return (
    <Badge color={DELIVERY_COLORS[status]} variant="light" data-testid="delivery-status">
      {status}
    </Badge>
  );
}
