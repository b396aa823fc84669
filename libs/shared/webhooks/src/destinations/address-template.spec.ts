import { DEFAULT_ADDRESS_TEMPLATE, renderAddress, unknownTemplateVariables } from './address-template.js';

describe('routing-key and subject templates', () => {
  it('when an order event is addressed by the default template, its words are the event and the order number', () => {
    const address = renderAddress(DEFAULT_ADDRESS_TEMPLATE, 'order.shipped', { orderNo: 'SO-1', tenantId: 't' });

    expect(address).toBe('wms.order.shipped.SO-1');
  });

  it('when a stock event is addressed, its document is warehouse, location and sku, separators replaced', () => {
    const data = { warehouseCode: 'WH1', locationCode: 'A.01', sku: 'SKU *1', lotNo: null };

    expect(renderAddress('{event}.{documentKey}', 'stock.adjusted', data)).toBe('stock.adjusted.WH1-A_01-SKU__1');
  });

  it('when a return event is addressed, its document is the return, not the order it names', () => {
    const address = renderAddress('{documentKey}', 'return.completed', { rmaNo: 'RMA-9', orderNo: 'SO-1' });

    expect(address).toBe('RMA-9');
  });

  it('when a template names an unknown variable, it is reported', () => {
    expect(unknownTemplateVariables('wms.{event}.{sku}.{tenantId}')).toEqual(['sku']);
  });
});
