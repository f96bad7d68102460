CREATE EXTERNAL TABLE IF NOT EXISTS `nightly_jobs` (
  `_id` string,
  `atr` struct<domain_name:string,app_type:string>,
  `job` struct<state:string,execution_time:struct<elapsed:double>>,
  `labels` string
)
PARTITIONED BY (`dt` date)
ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'
LOCATION 's3://warehouse-raw/mdq/jobs/'
TBLPROPERTIES (
  'projection.enabled' = 'true',
  'projection.dt.type' = 'date',
  'projection.dt.format' = 'yyyy-MM-dd',
  'projection.dt.range' = '2026-11-01,NOW',
  'projection.dt.interval' = '1',
  'projection.dt.interval.unit' = 'DAYS',
  'storage.location.template' = 's3://warehouse-raw/mdq/jobs/dt=${dt}/'
);
