import { Alert, Anchor, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { ediApi, type EdiDocumentDetail } from '../../../api';
import { usePermission } from '../../../auth';
import {
  ConfirmButton,
  ErrorNotice,
  Fact,
  Facts,
  Loading,
  PageHeader,
  formatDateTime,
  useApi,
} from '../../../components';
import classes from './DocumentPage.module.css';
import { DocumentStateBadge } from './DocumentStateBadge';

/** Where a set's document lives in the portal, when it has a page. */
function documentLink(kind: string | null, ref: string) {
  if (kind === 'return') return `/returns/${encodeURIComponent(ref)}`;
  return null;
}

function Segments({ document }: { document: EdiDocumentDetail }) {
  const width = Math.max(0, ...document.segments.map((segment) => segment.elements.length));
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="sm">
        Segments
      </Title>
      {document.parseError ? (
        <Alert color="red">{document.parseError}</Alert>
      ) : (
        <>
          <Text size="sm" mb="xs" c="dimmed">
            Split with the separators its ISA declares: element <Code>{document.separators?.element}</Code>, component{' '}
            <Code>{document.separators?.component}</Code>, segment <Code>{document.separators?.segment}</Code>
            {document.segmentCount > document.segments.length &&
              ` — the first ${document.segments.length} of ${document.segmentCount}`}
          </Text>
          <div className={classes.scroll} tabIndex={0} role="region" aria-label="Segments, scrollable">
            <Table striped withColumnBorders verticalSpacing={4} aria-label="Segments" className="mono">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>#</Table.Th>
                  <Table.Th>ID</Table.Th>
                  {Array.from({ length: width }, (_, index) => (
                    <Table.Th key={index}>{String(index + 1).padStart(2, '0')}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {document.segments.map((segment) => (
                  <Table.Tr key={segment.position}>
                    <Table.Td>{segment.position}</Table.Td>
                    <Table.Td fw={600}>{segment.id}</Table.Td>
                    {Array.from({ length: width }, (_, index) => (
                      <Table.Td key={index} style={{ whiteSpace: 'pre' }}>
                        {segment.elements[index] ?? ''}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        </>
      )}
    </Paper>
  );
}

function Sets({ document }: { document: EdiDocumentDetail }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="sm">
        Transaction sets
      </Title>
      <Table verticalSpacing="xs" aria-label="Transaction sets">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Set</Table.Th>
            <Table.Th>GS06 / ST02</Table.Th>
            <Table.Th>Our document</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Errors</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {document.sets.map((set) => {
            const link = set.documentRef ? documentLink(set.documentKind, set.documentRef) : null;
            return (
              <Table.Tr key={set.id}>
                <Table.Td className="mono">{set.setCode}</Table.Td>
                <Table.Td className="mono">
                  {set.groupControl} / {set.setControl}
                </Table.Td>
                <Table.Td className="mono">
                  {link ? (
                    <Anchor component={Link} to={link}>
                      {set.documentRef}
                    </Anchor>
                  ) : (
                    [set.documentKind, set.documentRef].filter(Boolean).join(' ') || '—'
                  )}
                </Table.Td>
                <Table.Td>{set.state.replaceAll('_', ' ')}</Table.Td>
                <Table.Td>
                  {set.errors.map((error, index) => (
                    <Text key={index} size="sm" c="red">
                      {[
                        error.segmentId,
                        error.elementPosition && `element ${error.elementPosition}`,
                        error.code,
                        error.message,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  ))}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {document.sets.length === 0 && (
        <Text size="sm" c="dimmed">
          No sets recorded.
        </Text>
      )}
    </Paper>
  );
}

/** One document: what it is, its text, its segments, its sets and their errors; resend for an outbound one. */
export default function DocumentPage() {
  const { id = '', documentId = '' } = useParams();
  const navigate = useNavigate();
  const { write } = usePermission('edi');
  const document = useApi(['edi-documents', id, documentId], () => ediApi.document(id, documentId));

  if (document.error) return <ErrorNotice error={document.error} />;
  if (!document.data) return <Loading />;
  const doc = document.data;
  return (
    <Stack gap="lg">
      <PageHeader
        title={`${doc.direction === 'in' ? 'Received' : 'Sent'} ${doc.setCodes.join(', ')}`}
        description={doc.fileName ?? undefined}
        actions={
          write &&
          doc.direction === 'out' && (
            <ConfirmButton
              label="Send again"
              title="Send the document again"
              message="It is written again with new control numbers, as a new file in the partner's out/ folder."
              confirmLabel="Send again"
              onConfirm={async () => {
                const resent = await ediApi.resend(id, doc.id);
                navigate(`/edi/partners/${id}/documents/${resent.id}`);
              }}
            />
          )
        }
      />
      <Facts title="Document">
        <Fact term="State">
          <DocumentStateBadge state={doc.state} overdue={doc.overdue} />
        </Fact>
        <Fact term="ISA13">
          <span className="mono">{doc.interchangeControl ?? '—'}</span>
        </Fact>
        <Fact term="Came in by / made from">{doc.source}</Fact>
        <Fact term="Created">{formatDateTime(doc.createdAt)}</Fact>
        <Fact term="Size">{doc.sizeBytes} bytes</Fact>
        {doc.error && (
          <Fact term="Error">
            <Text c="red" size="sm">
              {doc.error}
            </Text>
          </Fact>
        )}
        <Fact term="Acknowledgment">
          {doc.acknowledgment ? (
            <Anchor component={Link} to={`/edi/partners/${id}/documents/${doc.acknowledgment.id}`}>
              {doc.acknowledgment.setCodes.join(', ')} {doc.acknowledgment.interchangeControl}
            </Anchor>
          ) : (
            'none yet'
          )}
        </Fact>
        {doc.resentFrom && (
          <Fact term="Resent from">
            <Anchor component={Link} to={`/edi/partners/${id}/documents/${doc.resentFrom}`}>
              the first sending
            </Anchor>
          </Fact>
        )}
        {doc.resends.length > 0 && (
          <Fact term="Sent again as">
            <Group gap="xs">
              {doc.resends.map((resend) => (
                <Anchor key={resend.id} component={Link} to={`/edi/partners/${id}/documents/${resend.id}`}>
                  {formatDateTime(resend.createdAt)}
                </Anchor>
              ))}
            </Group>
          </Fact>
        )}
      </Facts>
      <Sets document={doc} />
      <Segments document={doc} />
      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          Raw text {doc.rawTruncated && '(its first MiB)'}
        </Title>
        <Code block data-testid="document-raw" className={classes.scroll} tabIndex={0} aria-label="Raw text">
          {doc.raw}
        </Code>
      </Paper>
      <Anchor component={Link} to={`/edi/partners/${id}`}>
        Back to the partner
      </Anchor>
    </Stack>
  );
}
