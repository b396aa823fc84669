// A local webhook receiver in a process of its own: answers 204 to every POST and keeps, per webhook-id and
// path (one path per subscription), the wall-clock time (ms, comparable across processes) its first copy arrived. Requests from the parent:
// { cmd: 'count' } → distinct deliveries; { cmd: 'times' } → [[webhook-id, at], ...]; { cmd: 'reset' }.
import { createServer } from 'node:http';

let receivedAt = new Map();
const now = () => performance.timeOrigin + performance.now();

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = `${req.url} ${req.headers['webhook-id']}`;
    if (!receivedAt.has(id)) receivedAt.set(id, now());
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;

const commands = {
  count: () => receivedAt.size,
  times: () => [...receivedAt].map(([key, at]) => [key.slice(key.indexOf(' ') + 1), at]),
  reset: () => {
    receivedAt = new Map();
    return 0;
  },
};

process.on('message', ({ id, cmd }) => process.send({ id, result: commands[cmd]() }));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
server.listen(0, '127.0.0.1', () => process.send({ ready: true, url: `http://127.0.0.1:${server.address().port}` }));
