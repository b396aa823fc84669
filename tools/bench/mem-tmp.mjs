import { freePort, prepareBenchEnv } from './lib.mjs';
import { spawnSync } from 'node:child_process';
const bench = await prepareBenchEnv('mem', { LOG_LEVEL: 'warn' });
const port = freePort();
const code = `const before = process.memoryUsage(); await import('/work/main/apps/gateway/dist/main.js'); setTimeout(() => { global.gc?.(); const m = process.memoryUsage(); const v8 = require('node:v8'); console.log(JSON.stringify({ rss: m.rss>>20, heapUsed: m.heapUsed>>20, heapTotal: m.heapTotal>>20, external: m.external>>20, arrayBuffers: m.arrayBuffers>>20 })); console.log(v8.getHeapSpaceStatistics().map(s => s.space_name + ' ' + (s.space_used_size>>20) + '/' + (s.space_size>>20)).join(', ')); process.exit(0); }, 4000);`;
const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=commonjs', '-e', `(async () => { ${code} })()`], { env: { ...bench.env, PORT: String(port) }, encoding: 'utf8' });
console.log(r.stdout.split('\n').filter(l => !l.startsWith('{"level"')).join('\n'), r.stderr.slice(0, 500));
await bench.cleanup();
