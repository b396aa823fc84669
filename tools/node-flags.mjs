// V8 start-up flags of each app, in one place: the launcher forks the apps with them, the bench starts them
// with them, and docker-compose.yml sets the same as NODE_OPTIONS (V8 reads them before any code runs, so
// an app cannot set them itself; tools/deployment.spec.ts checks compose against this list).
//
// The gateway's young generation is capped at 8 MB a semi-space (V8's default here is 16): under
// 32-connection inquiry load its peak RSS fell from 149–164 MB to 127–133 MB; more frequent scavenges cost
// the order inquiry a few hundredths of its ratio, and 10 or 12 MB put the peak back near or over 150 MB
// (docs/decisions.md, "Fast answers, fourth pass").
export const NODE_FLAGS = {
  gateway: ['--max-semi-space-size=8'],
  'ingest-worker': [],
  'webhook-worker': [],
};
