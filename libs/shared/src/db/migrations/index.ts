import type { Migration } from '../migration.js';
import { foundation } from './0001-foundation.js';
import { apiKeys } from './0002-api-keys.js';
import { masterData } from './0003-master-data.js';
import { eventsWebhooks } from './0004-events-webhooks.js';
import { auth } from './0005-auth.js';
import { documents } from './0006-documents.js';
import { operations } from './0007-operations.js';

/** Every migration, in the order it is applied. Append; never reorder or edit one that has shipped. */
export const migrations: Migration[] = [foundation, apiKeys, masterData, eventsWebhooks, auth, documents, operations];
