CREATE OR REPLACE EXTERNAL TABLE `mdq.nightly_jobs` (
  `_id` STRING,
  `timestamp` TIMESTAMP,
  `job_state` STRING,
  `elapsed_s` FLOAT64,
  `attempts` INT64,
  `bytes` INT64,
  `retried` BOOL,
  `labels` STRING
)
WITH PARTITION COLUMNS (
  `domain` STRING
)
OPTIONS (
  format = 'NEWLINE_DELIMITED_JSON',
  compression = 'GZIP',
  uris = ['gs://warehouse-raw/mdq/jobs/*.ndjson.gz'],
  hive_partition_uri_prefix = 'gs://warehouse-raw/mdq/jobs'
);
