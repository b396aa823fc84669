import { IncomingMessage, ServerResponse, createServer, type Server } from 'node:http';
import type { Express, Response } from 'express';

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

/** How the answer pipeline (answer-pipeline.ts) meets a response. */
export interface AnswerHooks {
  /** Called for `res.json(body)`; `send` is Express' own. */
  json(body: unknown, send: (body: unknown) => Response): Response;
  /** Called for `res.end(...)`; `finish` ends the response with the arguments it was called with. */
  end(finish: () => Response): Response;
}

/**
 * Express has no hook between a handler's answer and the socket: its `res.json` and `res.end` are the only
 * doors an answer passes, so the answer pipeline takes their place on this one response. This is the only
 * place that replaces them (ADR 0064).
 */
export function hookAnswer(res: Response, hooks: AnswerHooks): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => hooks.json(body, json);
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => hooks.end(() => end(...args))) as Response['end'];
}
