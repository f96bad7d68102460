CREATE OR REPLACE VIEW "nightly_jobs" AS
SELECT
  CAST("_id" AS VARCHAR) AS "_id",
  CAST("timestamp" AS TIMESTAMP) AS "timestamp",
  CAST("job_state" AS VARCHAR) AS "job_state",
  CAST("elapsed_s" AS DOUBLE) AS "elapsed_s",
  CAST("attempts" AS INTEGER) AS "attempts",
  CAST("bytes" AS BIGINT) AS "bytes",
  CAST("retried" AS BOOLEAN) AS "retried",
  CAST("labels" AS JSON) AS "labels",
  "domain"
FROM read_json('s3://warehouse-raw/mdq/jobs/domain=*/*-*.ndjson.gz', format = 'newline_delimited', hive_partitioning = true, hive_types = {'domain': VARCHAR}, columns = {'_id': 'VARCHAR', 'timestamp': 'VARCHAR', 'job_state': 'VARCHAR', 'elapsed_s': 'VARCHAR', 'attempts': 'VARCHAR', 'bytes': 'VARCHAR', 'retried': 'VARCHAR', 'labels': 'JSON'});
