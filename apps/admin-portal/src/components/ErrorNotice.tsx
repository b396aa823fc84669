import { Alert, List } from '@mantine/core';
import { ApiError } from '../api';

/** An API error as the API worded it, with the fields it named. */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof ApiError ? error.details : [];
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      {message}
      {details.length > 0 && (
        <List size="sm" mt="xs">
          {details.map((detail) => (
            <List.Item key={`${detail.path}:${detail.message}`}>{detail.message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
