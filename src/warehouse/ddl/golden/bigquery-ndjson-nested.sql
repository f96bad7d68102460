CREATE OR REPLACE EXTERNAL TABLE `mdq.nightly_jobs` (
  `_id` STRING,
  `atr` STRUCT<`domain_name` STRING, `app_type` STRING>,
  `job` STRUCT<`state` STRING, `execution_time` STRUCT<`elapsed` FLOAT64>>,
  `labels` STRING
)
WITH PARTITION COLUMNS (
  `dt` DATE
)
OPTIONS (
  format = 'NEWLINE_DELIMITED_JSON',
  uris = ['gs://warehouse-raw/mdq/jobs/*.ndjson'],
  hive_partition_uri_prefix = 'gs://warehouse-raw/mdq/jobs'
);
