import type { Request } from 'express';
import { routeTemplate } from './http-metrics.js';

const requestTo = (originalUrl: string, routePath?: string) =>
  ({ originalUrl, route: routePath === undefined ? undefined : { path: routePath } }) as unknown as Request;

describe('the route label of the HTTP metrics', () => {
  it.each([
    [
      '/api/v1/integration/v1/orders/SO-20260101-000001?x=1',
      '/orders/:orderNo',
      '/api/v1/integration/v1/orders/:orderNo',
    ],
    ['/API/V1/integration/v1/ORDERS/SO-1/', '/orders/:orderNo', '/api/v1/integration/v1/orders/:orderNo'],
    ['/api/v1/integration/v1/jobs/a%2Fb', '/jobs/:jobId', '/api/v1/integration/v1/jobs/:jobId'],
    ['/api/v1/webhooks', '/', '/api/v1/webhooks'],
    ['/api/v1/webhooks/', '/', '/api/v1/webhooks'],
    ['/metrics', '/metrics', '/metrics'],
    ['/', '/', '/'],
  ])('when %s matched the route %s, the label is %s', (url, routePath, label) => {
    expect(routeTemplate(requestTo(url, routePath))).toBe(label);
  });

  it.each([
    ['/api/v1/integration/v1/items?sku=A-1', '/api/v1/integration/v1/*'],
    ['/API/v1/users/3f2a', '/api/v1/*'],
    ['/admin/queues/static/js/main.js', '/admin/queues/*'],
    ['/nowhere/12345', 'unmatched'],
  ])('when no route matched %s, the label is its mount: %s', (url, label) => {
    expect(routeTemplate(requestTo(url))).toBe(label);
  });
});
