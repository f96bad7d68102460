CREATE OR REPLACE VIEW "nightly_jobs" AS
SELECT
  CAST(json_extract_string(mdq_record.json, '/_id') AS VARCHAR) AS "_id",
  CAST(json_extract_string(mdq_record.json, '/timestamp') AS TIMESTAMP) AS "timestamp",
  CAST(json_extract_string(mdq_record.json, '/job_state') AS VARCHAR) AS "job_state",
  CAST(json_extract_string(mdq_record.json, '/elapsed_s') AS DOUBLE) AS "elapsed_s",
  CAST(json_extract_string(mdq_record.json, '/attempts') AS INTEGER) AS "attempts",
  CAST(json_extract_string(mdq_record.json, '/bytes') AS BIGINT) AS "bytes",
  CAST(json_extract_string(mdq_record.json, '/retried') AS BOOLEAN) AS "retried",
  CAST(NULLIF(json_extract(mdq_record.json, '/labels'), 'null') AS JSON) AS "labels",
  "domain"
FROM read_json_objects('s3://warehouse-raw/mdq/jobs/domain=*/*-*.ndjson.gz', format = 'newline_delimited', hive_partitioning = true, hive_types = {'domain': VARCHAR}) AS mdq_record;
