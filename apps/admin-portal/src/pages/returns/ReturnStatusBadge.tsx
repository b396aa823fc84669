import { Badge } from '@mantine/core';
import { STATUS_COLORS, STATUS_LABELS, type ReturnStatus } from './returns-api';

export function ReturnStatusBadge({ status }: { status: ReturnStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
