import { Badge, Group, Text } from '@mantine/core';
import type { UserRecord } from '../../api';
import { MODULES, accessOf } from './modules';

const STATUS_COLORS = { active: 'green', inactive: 'gray', locked: 'red' } as const;
const STATUS_LABELS = { active: 'active', inactive: 'disabled', locked: 'locked' } as const;

export function UserStatusBadge({ status }: { status: UserRecord['status'] }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-testid="user-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}

/** The modules a user holds, "write" ones marked; an admin holds all. */
export function ModuleBadges({ user }: { user: UserRecord }) {
  if (user.role === 'admin')
    return (
      <Text size="sm" c="dimmed">
        all (admin)
      </Text>
    );
  const access = accessOf(user);
  const held = MODULES.filter(({ module }) => access[module] !== 'none');
  if (held.length === 0)
    return (
      <Text size="sm" c="dimmed">
        none
      </Text>
    );
  return (
    <Group gap={4}>
      {held.map(({ module, label }) => (
        <Badge
          key={module}
          size="sm"
          tt="none"
          variant={access[module] === 'write' ? 'light' : 'outline'}
          color="indigo"
        >
          {access[module] === 'write' ? `${label} ✎` : label}
        </Badge>
      ))}
    </Group>
  );
}
