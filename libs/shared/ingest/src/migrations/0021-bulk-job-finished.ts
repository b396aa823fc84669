import type { Migration } from '@wms/platform';

/**
 * A bulk job that becomes completed or failed says so on the channel `bulk_job_finished` (its id as the
 * payload). PostgreSQL delivers the word at the commit that finished the job, so whoever hears it reads a
 * finished row: a gateway waiting on the job wakes once, without a queue event stream to follow.
 */
export const bulkJobFinished: Migration = {
  name: '0021-bulk-job-finished',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE FUNCTION bulk_job_finished() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('bulk_job_finished', NEW.id);
          RETURN NULL;
        END
      $$;
      CREATE TRIGGER bulk_job_finished AFTER INSERT OR UPDATE OF state ON bulk_jobs
        FOR EACH ROW WHEN (NEW.state IN ('completed', 'failed'))
        EXECUTE FUNCTION bulk_job_finished();
    `);
  },
};
