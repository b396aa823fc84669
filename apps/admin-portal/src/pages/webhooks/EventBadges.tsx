import { Badge, Group } from '@mantine/core';

export function EventBadges({ events }: { events: string[] }) {
  return (
    <Group gap={4}>
      {events.map((event) => (
        <Badge key={event} variant="outline" color={event === '*' ? 'indigo' : 'gray'} size="sm" tt="none">
          {event === '*' ? 'all events' : event}
        </Badge>
      ))}
    </Group>
  );
}
