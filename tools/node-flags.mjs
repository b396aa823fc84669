// The Node.js flags each app is started with, wherever it is started: `npm start` (tools/start.mjs forks
// each app with them), the container commands (docker-compose.yml, Dockerfile; tools/deployment.spec.ts
// holds them to this table) and the bench (tools/bench/lib.mjs), so what is measured is what runs.
//
// The gateway's young generation is capped at 8 MB per semi-space (V8's default here is 16): under load it
// grew to its cap and kept the gateway's resident memory near 150 MB; at 8 MB the bench shows the same CPU
// per request and about 15 MB less at peak. V8 reads it only at start-up, so it cannot be set from main.ts.
export const NODE_FLAGS = {
  gateway: ['--max-semi-space-size=8'],
  'ingest-worker': [],
  'webhook-worker': [],
};

export function nodeFlagsOf(app) {
  return NODE_FLAGS[app] ?? [];
}
