import { NEWEST_API_VERSION } from '@wms/platform';
import { API_VERSION } from '../packages/client/src/version.js';

describe("the typed client's dated version", () => {
  it('when the service ships a new version, the client sends the one its types were generated for: the newest', () => {
    expect(API_VERSION).toBe(NEWEST_API_VERSION);
  });
});
