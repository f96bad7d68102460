CREATE EXTERNAL TABLE IF NOT EXISTS `nightly_jobs` (
  `_id` string,
  `timestamp` timestamp,
  `job_state` string,
  `elapsed_s` double,
  `attempts` int,
  `bytes` bigint,
  `retried` boolean,
  `labels` string
)
PARTITIONED BY (`dt` date, `hour` int)
STORED AS PARQUET
LOCATION 's3://warehouse-raw/mdq/jobs/'
TBLPROPERTIES (
  'projection.enabled' = 'true',
  'projection.dt.type' = 'date',
  'projection.dt.format' = 'yyyy-MM-dd',
  'projection.dt.range' = '2026-11-01,NOW',
  'projection.dt.interval' = '1',
  'projection.dt.interval.unit' = 'DAYS',
  'projection.hour.type' = 'integer',
  'projection.hour.range' = '0,23',
  'projection.hour.digits' = '2',
  'storage.location.template' = 's3://warehouse-raw/mdq/jobs/dt=${dt}/hour=${hour}/'
);
