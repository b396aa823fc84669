import { IncomingMessage, ServerResponse, createServer, type Server } from 'node:http';
import type { Express } from 'express';

type Constructor = new (...args: never[]) => object;

/**
 * A constructor for `base` objects whose prototype is `prototype` from birth. Node builds each request
 * and response with it, so Express finds them on its own prototypes already and its per-request
 * `Object.setPrototypeOf` changes nothing. Measured under inquiry load: with the prototypes swapped on
 * live objects, V8 promoted about a sixth of everything a request allocated into the old generation
 * (megabytes a second, all garbage soon after); born with them, about a twenty-fifth.
 */
function bornWith(base: Constructor, prototype: object): Constructor {
  function Born(this: unknown, ...args: never[]): object {
    return Reflect.construct(base, args, Born);
  }
  Born.prototype = prototype;
  return Born as unknown as Constructor;
}

/** The gateway's HTTP server: Express' request and response prototypes given at construction. */
export function createGatewayServer(app: Express): Server {
  return createServer(
    {
      IncomingMessage: bornWith(IncomingMessage, app.request) as typeof IncomingMessage,
      ServerResponse: bornWith(ServerResponse, app.response) as unknown as typeof ServerResponse,
    },
    app,
  );
}
