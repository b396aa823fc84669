import { createHash } from 'node:crypto';
import { requestFingerprint, type RequestMeaning } from './request-fingerprint.js';

const URL = '/api/v1/integration/v1/items/bulk';

/** A JSON request as the gateway sees it: the bytes as sent and the body parsed from them. */
const json = (text: string, url = URL, method = 'POST'): RequestMeaning => ({
  method,
  url,
  bytes: Buffer.from(text),
  json: { value: JSON.parse(text) as unknown },
});

describe('the fingerprint of a request with an Idempotency-Key', () => {
  const stored = requestFingerprint(json('{"items":[{"sku":"A","name":"Mug","weightKg":1.5}]}', `${URL}?b=2&a=1&a=0`));

  it('when the JSON body has its keys in another order and other spacing, it is the same request', () => {
    const reordered = json('{ "items": [ { "weightKg": 1.50, "name": "Mug", "sku": "A" } ] }', `${URL}?b=2&a=1&a=0`);

    expect(requestFingerprint(reordered).differences(stored.value)).toEqual([]);
  });

  it('when query parameters come in another order, it is the same request; a repeated name keeps its values in order', () => {
    const body = '{"items":[{"sku":"A","name":"Mug","weightKg":1.5}]}';

    expect(requestFingerprint(json(body, `${URL}?a=1&b=2&a=0`)).differences(stored.value)).toEqual([]);
    expect(requestFingerprint(json(body, `${URL}?a=%31&a=0&b=2`)).differences(stored.value)).toEqual([]);
    expect(requestFingerprint(json(body, `${URL}?a=0&a=1&b=2`)).differences(stored.value)).toEqual(['query']);
  });

  it('when the body, the path or the method differs, the difference names that part', () => {
    const body = '{"items":[{"sku":"A","name":"Mug","weightKg":1.5}]}';
    const query = '?b=2&a=1&a=0';

    expect(requestFingerprint(json(body.replace('Mug', 'Cup'), `${URL}${query}`)).differences(stored.value)).toEqual([
      'body',
    ]);
    expect(
      requestFingerprint(json(body, `/api/v1/integration/v1/partners/bulk${query}`)).differences(stored.value),
    ).toEqual(['path']);
    expect(requestFingerprint(json('{}', `${URL}?dryRun=true`, 'PUT')).differences(stored.value)).toEqual([
      'method',
      'query',
      'body',
    ]);
  });

  it('when the body is not JSON (an upload), its bytes are compared as they are', () => {
    const upload = (bytes: string): RequestMeaning => ({ method: 'POST', url: '/imports?entity=items', bytes });

    const first = requestFingerprint(upload('text/csv\n\n120'));

    expect(requestFingerprint(upload('text/csv\n\n120')).differences(first.value)).toEqual([]);
    expect(requestFingerprint(upload('text/csv\ngzip\n120')).differences(first.value)).toEqual(['body']);
  });

  it('when a JSON string holds a lone surrogate, which RFC 8785 refuses, the body is compared by its bytes', () => {
    const text = '{"name":"\\ud800"}';

    const fingerprint = requestFingerprint(json(text));

    expect(requestFingerprint(json(text)).differences(fingerprint.value)).toEqual([]);
    expect(requestFingerprint(json('{"name":"\\ud801"}')).differences(fingerprint.value)).toEqual(['body']);
  });

  it('when the record holds the first form (a hash of the bytes), the same bytes match and others differ without a part', () => {
    const text = '{"items":[]}';
    const firstForm = createHash('sha256').update(`POST ${URL}?dryRun=true\n`).update(text).digest('hex');

    expect(requestFingerprint(json(text, `${URL}?dryRun=true`)).differences(firstForm)).toEqual([]);
    expect(requestFingerprint(json('{ "items": [] }', `${URL}?dryRun=true`)).differences(firstForm)).toBeNull();
  });
});
