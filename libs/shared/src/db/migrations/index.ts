import type { Migration } from '../migration.js';
import { foundation } from './0001-foundation.js';

/** Every migration, in the order it is applied. Append; never reorder or edit one that has shipped. */
export const migrations: Migration[] = [foundation];
