CREATE OR REPLACE VIEW "nightly_jobs" AS
SELECT
  CAST("_id" AS VARCHAR) AS "_id",
  CAST("timestamp" AS TIMESTAMPTZ) AS "timestamp",
  CAST("job_state" AS VARCHAR) AS "job_state",
  CAST("elapsed_s" AS DOUBLE) AS "elapsed_s",
  CAST("attempts" AS INTEGER) AS "attempts",
  CAST("bytes" AS BIGINT) AS "bytes",
  CAST("retried" AS BOOLEAN) AS "retried",
  CAST("labels" AS JSON) AS "labels",
  "dt",
  "hour"
FROM read_parquet('s3://warehouse-raw/mdq/jobs/dt=*/hour=*/part-*-*.parquet', hive_partitioning = true, hive_types = {'dt': DATE, 'hour': INTEGER}, union_by_name = true);
