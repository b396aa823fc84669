import { IncomingMessage, ServerResponse, createServer, type Server } from 'node:http';
import type { Express } from 'express';

/**
 * The Express adapter: the one place that relies on how Express handles a request (express 5.3, pinned by
 * `server.spec.ts`), as Express offers no option to leave a request's prototype alone (ADR 0064).
 *
 * The gateway's HTTP server, whose requests and responses are born with Express' prototypes: Express
 * sets `app.request` and `app.response` as the prototype of every request and response it handles, and
 * here those are the prototypes of the classes Node constructs them with, so that per-request
 * `Object.setPrototypeOf` changes nothing. A prototype swapped on a live object made V8 promote far
 * more of each request's short-lived garbage into the old generation. Plain subclasses keep Node's
 * fast construction path (a constructor function calling `Reflect.construct` with another new.target
 * cost the inquiries a sixth of their CPU).
 */
export function createGatewayServer(app: Express): Server {
  class GatewayRequest extends IncomingMessage {}
  class GatewayResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
  Object.setPrototypeOf(GatewayRequest.prototype, app.request);
  Object.setPrototypeOf(GatewayResponse.prototype, app.response);
  app.request = GatewayRequest.prototype as Express['request'];
  app.response = GatewayResponse.prototype as Express['response'];
  return createServer({ IncomingMessage: GatewayRequest, ServerResponse: GatewayResponse }, app);
}
