import { createHash } from 'node:crypto';
import { PreparedRead, type Database } from '../db/index.js';
import { BulkAlreadyWritten, type WriteGuard } from '../integration/index.js';

/**
 * The guard of a stored job's one statement (a bulk that needs no transaction). The statement is
 * wrapped so that, atomically: it locks the job's row if still `queued`, writes only then, and marks the
 * row `written` with what it returned. A second run of the job waits for the first's lock, finds the row
 * no longer `queued` and writes nothing. A run that finds the row `written` (the first stopped before
 * storing its result) gets the stored rows back, so it reports exactly what the first run did.
 */
// A handler's guarded statement is the same text every time: it is prepared once per connection, under a
// name taken from its text.
const statements = new Map<string, PreparedRead<object>>();

function prepared(text: string): PreparedRead<object> {
  let statement = statements.get(text);
  if (!statement) {
    statement = new PreparedRead(`bulk-guard-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text);
    statements.set(text, statement);
  }
  return statement;
}

export class JobWriteGuard implements WriteGuard {
  constructor(
    private readonly db: Database,
    private readonly jobId: string,
    /** The rows stored by the statement of an earlier run, when the job is `written` already. */
    private readonly written?: object[],
  ) {}

  async run<Row extends object>(sqlOf: (condition: string) => string, bind: unknown[]): Promise<Row[]> {
    if (this.written) return this.written as Row[];
    const jobParam = `$${bind.length + 1}`;
    const text = `WITH job AS (SELECT id FROM bulk_jobs WHERE id = ${jobParam} AND state = 'queued' FOR UPDATE),
       written AS (${sqlOf('WHERE EXISTS (SELECT 1 FROM job)')}),
       marked AS (
         UPDATE bulk_jobs SET state = 'written',
                outcome = (SELECT coalesce(json_agg(written), '[]')::text FROM written)
          WHERE id = (SELECT id FROM job))
       SELECT * FROM written`;
    const rows = (await prepared(text).rows(this.db.sequelize, [...bind, this.jobId])) as Row[];
    // Every entry of a guarded statement answers a row; none means the claim was not ours.
    if (!rows.length) throw new BulkAlreadyWritten();
    return rows;
  }
}
