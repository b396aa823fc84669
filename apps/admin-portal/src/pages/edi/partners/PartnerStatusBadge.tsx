import { Badge } from '@mantine/core';

export function PartnerStatusBadge({ status }: { status: 'active' | 'disabled' }) {
  return (
    <Badge color={status === 'active' ? 'green' : 'gray'} variant="light">
      {status}
    </Badge>
  );
}
