import { Badge } from '@mantine/core';
import type { ApiKey } from '../../api';

/** Active, revoked, or expired (an active key past its expiry is refused like a revoked one). */
export function KeyStatusBadge({ apiKey }: { apiKey: Pick<ApiKey, 'active' | 'expiresAt'> }) {
  if (!apiKey.active)
    return (
      <Badge color="red" variant="light">
        revoked
      </Badge>
    );
  if (apiKey.expiresAt && new Date(apiKey.expiresAt).getTime() <= Date.now())
    return (
      <Badge color="orange" variant="light">
        expired
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      active
    </Badge>
  );
}
