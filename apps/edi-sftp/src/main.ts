import type { Server } from 'node:http';
import {
  claimKeySpaceAtStart,
  installShutdown,
  loadConfigOrExit,
  openRuntime,
  startHealthServer,
  waitForDependencies,
} from '@wms/platform';
import { startEdiSftp, type EdiSftpServer } from './edi-sftp.js';
import { ediSftpProcessMetrics } from './metrics.js';
import { StoredInbox } from './stored-inbox.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'edi-sftp', redisRole: 'producer', databaseWork: 'requests' });
const { logger } = runtime;

let healthServer: Server | undefined;
let sftpServer: EdiSftpServer | undefined;

// No new connection, uploads being stored finish, sessions end; then Redis and the database.
installShutdown(logger, config.shutdownTimeoutMs, async () => {
  healthServer?.close();
  await sftpServer?.close(Math.max(1_000, config.shutdownTimeoutMs - 3_000));
  await runtime.close();
});

await waitForDependencies(runtime.db.sequelize, runtime.redis, {
  onWait: (health) => logger.warn({ health }, 'waiting for PostgreSQL and Redis'),
});
// Its login throttle lives in Redis: a key space another database holds ends the process (REDIS_KEY_PREFIX).
await claimKeySpaceAtStart(runtime.keySpace, logger);
try {
  sftpServer = await startEdiSftp(runtime, { inbox: new StoredInbox(runtime.db) });
} catch (error) {
  logger.fatal({ err: error }, 'edi-sftp: could not start');
  await runtime.close();
  process.exit(1);
}
if (config.workerHealthPort)
  healthServer = await startHealthServer(config.workerHealthPort, runtime.db.sequelize, runtime.redis, {
    metrics: ediSftpProcessMetrics(),
    token: config.metricsToken,
    keySpace: runtime.keySpace,
  });
logger.info({ port: sftpServer.port }, 'edi-sftp started');
