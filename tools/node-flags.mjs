// V8 start-up flags of each app, in one place: the launcher forks the apps with them, the bench starts them
// with them, and docker-compose.yml and the Dockerfile put the same on each app's command line (V8 reads
// them before any code runs, so an app cannot set them itself; NODE_OPTIONS refuses most of them;
// tools/deployment.spec.ts checks both files against this list).
//
// Young generation. Node 24's V8, built without pointer compression, lets a semi-space grow to 64 MB
// (Node 20's: 16 MB); the workers keep Node 20's 16 MB (peak RSS under load: ingest worker 137 against
// 253–266 MB, webhook worker 172–180 against 235–240 MB, with no loss in the bulk or webhook bench). The
// gateway's is capped at 8 MB: under 32-connection inquiry load its peak RSS fell from 149–164 MB to
// 127–133 MB on Node 20; more frequent scavenges cost the order inquiry a few hundredths of its ratio, and
// 10 or 12 MB put the peak back near or over 150 MB (docs/decisions.md, "Fast answers, fourth pass").
//
// The gateway runs without Maglev, V8's mid-tier compiler: its code and compilations cost the gateway
// 13–16 MB of peak RSS, and a request's steady-state work is the same without it (347 k against 346 k
// instructions per stock inquiry once TurboFan has compiled the hot code; "Fast answers, eighth pass").
//
// The ingest worker collects garbage on its main thread alone (--single-threaded-gc). A 500-item job
// allocates in large pieces (the entries' and the result's JSON, arrays of 500 objects), so it scavenges
// often, and each parallel scavenge wakes helper threads that, on cores busy with PostgreSQL, mostly wait:
// in alternating bulk benches the worker spent 4.5–5.5 ms of CPU per 500-item call against 5.4–6.6 without
// the flag, with the same peak RSS. The webhook worker showed no difference either way and keeps V8's
// default; the gateway's peak RSS under the inquiries rose to 221 MB with it ("Fast answers, ninth pass").
export const NODE_FLAGS = {
  gateway: ['--max-semi-space-size=8', '--no-maglev'],
  'ingest-worker': ['--max-semi-space-size=16', '--single-threaded-gc'],
  'webhook-worker': ['--max-semi-space-size=16'],
};
