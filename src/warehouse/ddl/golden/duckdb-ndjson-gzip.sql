CREATE OR REPLACE MACRO mdq_instant(text) AS CASE
  WHEN regexp_full_match(text, '-?[0-9]+') THEN
    CASE WHEN abs(TRY_CAST(text AS HUGEINT)) <= 8640000000000000 THEN make_timestamptz(TRY_CAST(text AS BIGINT) * 1000) END
  WHEN regexp_matches(text, '[0-9]:[0-9]{2}(:[0-9]{2}([.,][0-9]*)?)? ?([zZ]|[+-][0-9]{2}(:?[0-9]{2})?)$') THEN TRY_CAST(text AS TIMESTAMPTZ)
  ELSE timezone('UTC', TRY_CAST(text AS TIMESTAMP))
END;
CREATE OR REPLACE VIEW "nightly_jobs" AS
SELECT
  CAST(json_extract_string(mdq_record.json, '/_id') AS VARCHAR) AS "_id",
  mdq_instant(json_extract_string(mdq_record.json, '/timestamp')) AS "timestamp",
  CAST(json_extract_string(mdq_record.json, '/job_state') AS VARCHAR) AS "job_state",
  CAST(json_extract_string(mdq_record.json, '/elapsed_s') AS DOUBLE) AS "elapsed_s",
  CAST(json_extract_string(mdq_record.json, '/attempts') AS INTEGER) AS "attempts",
  CAST(json_extract_string(mdq_record.json, '/bytes') AS BIGINT) AS "bytes",
  CAST(json_extract_string(mdq_record.json, '/retried') AS BOOLEAN) AS "retried",
  CAST(NULLIF(json_extract(mdq_record.json, '/labels'), 'null') AS JSON) AS "labels",
  "domain"
FROM read_json_objects('s3://warehouse-raw/mdq/jobs/domain=*/*-*.ndjson.gz', format = 'newline_delimited', hive_partitioning = true, hive_types = {'domain': VARCHAR}) AS mdq_record;
