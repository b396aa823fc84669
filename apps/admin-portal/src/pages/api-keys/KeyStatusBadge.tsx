import { Badge } from '@mantine/core';
import type { ApiKey } from '../../api';

/** Active, revoked, expired (an active key past its expiry is refused like a revoked one), or expiring within 14 days. */
export function KeyStatusBadge({ apiKey }: { apiKey: Pick<ApiKey, 'active' | 'expiresAt' | 'expiresSoon'> }) {
  if (!apiKey.active)
    return (
      <Badge color="red" variant="light">
        revoked
      </Badge>
    );
  if (apiKey.expiresAt && new Date(apiKey.expiresAt).getTime() <= Date.now())
    return (
      <Badge color="red" variant="light">
        expired
      </Badge>
    );
  if (apiKey.expiresSoon)
    return (
      <Badge color="orange" variant="light">
        expires soon
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      active
    </Badge>
  );
}
