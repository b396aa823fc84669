import { Badge } from '@mantine/core';
import type { EdiDocumentState } from '../../../api';

const COLORS: Record<EdiDocumentState, string> = {
  received: 'blue',
  processing: 'blue',
  accepted: 'green',
  partially_accepted: 'yellow',
  rejected: 'red',
  unreadable: 'red',
  duplicate: 'gray',
  sent: 'cyan',
  acknowledged: 'green',
  acknowledged_with_errors: 'yellow',
  acknowledgment_rejected: 'red',
};

/** A document's state, and "overdue" beside it when an advice waits too long for the partner's 997. */
export function DocumentStateBadge({ state, overdue = false }: { state: EdiDocumentState; overdue?: boolean }) {
  return (
    <>
      <Badge color={COLORS[state]} variant="light" data-testid="document-state">
        {state.replaceAll('_', ' ')}
      </Badge>{' '}
      {overdue && (
        <Badge color="red" variant="filled" data-testid="document-overdue">
          overdue
        </Badge>
      )}
    </>
  );
}
