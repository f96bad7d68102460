CREATE OR REPLACE VIEW "nightly_jobs" AS
SELECT
  CAST(json_extract_string(mdq_record.json, '/_id') AS VARCHAR) AS "_id",
  CAST(COALESCE(json_extract_string(mdq_record.json, '/atr.domain_name'), json_extract_string(mdq_record.json, '/atr/domain_name')) AS VARCHAR) AS "atr.domain_name",
  CAST(COALESCE(json_extract_string(mdq_record.json, '/job.state'), json_extract_string(mdq_record.json, '/job/state')) AS VARCHAR) AS "job.state",
  CAST(COALESCE(json_extract_string(mdq_record.json, '/job.execution_time.elapsed'), json_extract_string(mdq_record.json, '/job/execution_time.elapsed'), json_extract_string(mdq_record.json, '/job/execution_time/elapsed'), json_extract_string(mdq_record.json, '/job.execution_time/elapsed')) AS DOUBLE) AS "job.execution_time.elapsed",
  CAST(COALESCE(json_extract_string(mdq_record.json, '/atr.app_type'), json_extract_string(mdq_record.json, '/atr/app_type')) AS VARCHAR) AS "atr.app_type",
  CAST(NULLIF(json_extract(mdq_record.json, '/labels'), 'null') AS JSON) AS "labels",
  "dt"
FROM read_json_objects('s3://warehouse-raw/mdq/jobs/dt=*/*-*.ndjson', format = 'newline_delimited', hive_partitioning = true, hive_types = {'dt': DATE}) AS mdq_record;
