import { Parser, DiagnosticSeverity } from '@asyncapi/parser';
import { eventCatalogue } from '@wms/events';
import { API_VERSIONS, OLDEST_API_VERSION, NEWEST_API_VERSION } from '@wms/platform';
import { asyncApiDocument } from './asyncapi.js';

interface SchemaNode {
  type?: string;
  pattern?: string;
  properties?: Record<string, SchemaNode>;
}
interface Document {
  channels: Record<string, { messages: Record<string, unknown> }>;
  components: { messages: Record<string, { headers: { required: string[] }; payload: SchemaNode }> };
}
const documentOf = (version: string) => asyncApiDocument(version) as unknown as Document;

describe('AsyncAPI document of the events', () => {
  it.each(API_VERSIONS)('when the document of %s is parsed by @asyncapi/parser, it has no errors', async (version) => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(asyncApiDocument(version)));

    expect(diagnostics.filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error)).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
    expect(document?.info().version()).toBe(version);
  });

  it('when the document is built, it has one message per event of the catalogue on every destination kind', () => {
    const document = documentOf(NEWEST_API_VERSION);

    const events = Object.keys(eventCatalogue).sort();
    expect(Object.keys(document.components.messages).sort()).toEqual(events);
    expect(Object.keys(document.channels).sort()).toEqual(['http', 'nats', 'rabbitmq']);
    for (const channel of Object.values(document.channels)) {
      expect(Object.keys(channel.messages).sort()).toEqual(events);
    }
    expect(document.components.messages['order.shipped']?.headers.required).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
  });

  it('when versions differ, quantities are numbers in the oldest and decimal strings from 2026-12-01', () => {
    const qtyDelta = (version: string) =>
      documentOf(version).components.messages['stock.adjusted']?.payload.properties?.data?.properties?.qtyDelta;

    expect(qtyDelta(OLDEST_API_VERSION)).toMatchObject({ type: 'number' });
    expect(qtyDelta('2026-12-01')).toMatchObject({ type: 'string', pattern: '^-?\\d+\\.\\d{4}$' });
  });
});
