import { Badge, Group, Text } from '@mantine/core';
import { webhooksApi, type CreatedWebhookSubscription, type WebhookSubscription } from '../../api';
import { GracePeriodButton, formatDateTime, type GraceChoice } from '../../components';

/** How long the previous secret keeps signing beside the new one; the API's default is 24 hours, its most 7 days. */
const GRACE_CHOICES: GraceChoice[] = [
  {
    value: '0',
    label: 'None: the old secret stops now',
    hint: 'Receivers still on the old secret reject every delivery',
  },
  { value: '3600', label: '1 hour', hint: 'For a receiver whose secret you change right away' },
  { value: '86400', label: '24 hours', hint: 'The usual choice: time to deploy the new secret' },
  { value: '604800', label: '7 days', hint: 'The longest: for receivers run by another team' },
];
const DEFAULT_GRACE = '86400';

/** Rotates the signing secret after a dialog that asks how long the old one keeps signing. */
export function RotateSecretButton(props: {
  subscription: WebhookSubscription;
  onRotated: (rotated: CreatedWebhookSubscription) => void;
}) {
  const previousExpiresAt = props.subscription.previousSecretExpiresAt;
  return (
    <GracePeriodButton
      label="Rotate secret"
      title="Rotate the signing secret?"
      intro="A new secret is made and shown once. During the grace period every delivery carries two signatures, one per secret, so the receiver can switch when it is ready."
      choices={GRACE_CHOICES}
      defaultValue={DEFAULT_GRACE}
      note={
        previousExpiresAt &&
        `A previous secret still signs until ${formatDateTime(previousExpiresAt)}; it stops at once, and only the secret in use now keeps signing beside the new one.`
      }
      onConfirm={async (graceSeconds) =>
        props.onRotated(await webhooksApi.rotateSecret(props.subscription.id, graceSeconds))
      }
    />
  );
}

/** Which secrets sign now: one, or two until the grace period of the last rotation ends. */
export function SigningState({ subscription }: { subscription: WebhookSubscription }) {
  if (subscription.previousSecretExpiresAt)
    return (
      <Group gap="xs" data-testid="signing-state">
        <Badge color="orange" variant="light">
          two secrets sign
        </Badge>
        <Text size="sm">
          The previous secret signs beside the new one until {formatDateTime(subscription.previousSecretExpiresAt)}
        </Text>
      </Group>
    );
  return (
    <Text size="sm" data-testid="signing-state">
      One secret
      {subscription.secretRotatedAt ? `, rotated ${formatDateTime(subscription.secretRotatedAt)}` : ', never rotated'}
    </Text>
  );
}

/** The rotation's note under the new secret: until when the old one still signs. */
export function rotationNote(rotated: CreatedWebhookSubscription): string {
  return rotated.previousSecretExpiresAt
    ? `Until ${formatDateTime(rotated.previousSecretExpiresAt)} every delivery is signed with both the old and the new secret; after that, with the new one only.`
    : 'The old secret no longer signs: deliveries are signed with the new secret only.';
}
