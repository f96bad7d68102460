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
  `dt` DATE,
  `hour` INT64
)
OPTIONS (
  format = 'PARQUET',
  uris = ['gs://warehouse-raw/mdq/jobs/*.parquet'],
  hive_partition_uri_prefix = 'gs://warehouse-raw/mdq/jobs'
);
