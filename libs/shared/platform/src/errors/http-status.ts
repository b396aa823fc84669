import { STATUS_CODES } from 'node:http';

/** The reason phrase of an HTTP status, e.g. 401 -> "Unauthorized". */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}
