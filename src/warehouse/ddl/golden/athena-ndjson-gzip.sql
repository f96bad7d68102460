CREATE EXTERNAL TABLE IF NOT EXISTS `nightly_jobs` (
  `_id` string,
  `timestamp` string,
  `job_state` string,
  `elapsed_s` double,
  `attempts` int,
  `bytes` bigint,
  `retried` boolean,
  `labels` string
)
PARTITIONED BY (`domain` string)
ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'
LOCATION 's3://warehouse-raw/mdq/jobs/';
-- Partitions on record values are not projected; load them after each run:
MSCK REPAIR TABLE `nightly_jobs`;
