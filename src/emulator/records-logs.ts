// Builders of generated log and metric records: logs differ by application family (domain-scoped
// applications versus serverless event operations), metrics by app_type (kubernetes has cluster data).
import type { FieldSpec } from "../api/wire/fields.js";
import { isoTime, messageText } from "./awkward.js";
import { pick } from "./random.js";
import type { RecordInput, Source } from "./records.js";

const LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
const METHODS = ["GET", "GET", "POST", "PUT", "DELETE"];
const ENDPOINTS = ["/api/orders", "/api/users/{id}", "/health", '/api/reports?from=2026-01-01&x="y"'];
const STATUS = [200, 200, 200, 201, 204, 400, 404, 500, 503];

const SERVERLESS_ONLY = new Set(["function_name", "function_memory_size", "event.origin"]);
const DOMAIN_LOGS_ONLY = new Set(["logLevel", "regex.extractions.logLevel", "atr.domain_name"]);
const KUBERNETES_ONLY = new Set(["atr.infra_data.cluster", "atr.infra_data.namespace"]);

/** The log mappings of an app type list the fields its records carry: serverless or domain ones. */
export function logFieldMapped(field: FieldSpec, appType: string | undefined): boolean {
  return appType === "serverless" ? !DOMAIN_LOGS_ONLY.has(field.name) : !SERVERLESS_ONLY.has(field.name);
}

/** The metric mappings of ec2 leave out the cluster data only kubernetes records carry. */
export function metricFieldMapped(field: FieldSpec, appType: string | undefined): boolean {
  return appType === "ec2" ? !KUBERNETES_ONLY.has(field.name) : true;
}

export function logSource(input: RecordInput): Source {
  const { random, ts, n, stream } = input;
  const level = pick(random, LEVELS);
  const time = isoTime(ts);
  const source: Source = { "@timestamp": time, timestamp: time, message: messageText(random, n), level };
  if (stream.appType === "serverless") {
    source["function_name"] =
      `${stream.scopeParts[0]?.split("/").pop() ?? "fn"}-${stream.scopeParts[2] ?? "prod"}`;
    source["function_memory_size"] = pick(random, [128, 256, 512, 1024]);
    source["event"] = { origin: pick(random, ["aws.lambda", "aws.apigateway", "aws.sqs"]) };
  } else {
    source["logLevel"] = level.toLowerCase();
    source["regex"] = { extractions: { logLevel: random() < 0.1 ? null : level } };
    source["atr"] = { domain_name: stream.scope };
  }
  if (random() < 0.7) {
    const user = `u-${Math.floor(random() * 5000)}`;
    source["request"] = { method: pick(random, METHODS), user_id: user, endpoint: pick(random, ENDPOINTS) };
    source["response"] = { status_code: pick(random, STATUS) };
    source["user"] = { id: user };
  }
  return source;
}

const ZONES = ["eu-west-1a", "eu-west-1b", "eu-central-1a", "us-east-1c"];

export function metricSource(input: RecordInput): Source {
  const { random, ts, stream } = input;
  const host = `ip-10-0-${Math.floor(random() * 255)}-${Math.floor(random() * 255)}`;
  const zone = pick(random, ZONES);
  const infraData: Source = {
    private_dns: `${host}.${zone.slice(0, -1)}.compute.internal`,
    aws_environment: pick(random, ["prod", "nonprod"]),
    region: zone.slice(0, -1),
  };
  if (stream.appType === "kubernetes") {
    infraData["cluster"] = `eks-${stream.application}-1`;
    infraData["namespace"] = pick(random, ["default", "payments", "kube-system"]);
  }
  const metricset = pick(random, ["cpu", "memory", "network", "filesystem"]);
  return {
    "@timestamp": isoTime(ts),
    cloud: {
      availability_zone: zone,
      provider: "aws",
      machine: { type: pick(random, ["m5.large", "t3.medium", "c6i.xlarge"]) },
      instance: {
        id: `i-0${Math.floor(random() * 0xfffffff).toString(16)}`,
        name: `${stream.application}-${host}`,
      },
    },
    atr: {
      domain_name: stream.scope,
      infra_type: stream.appType,
      client: pick(random, ["Contoso", "Initech"]),
      infra_data: infraData,
    },
    host: { hostname: host, private_dns: infraData["private_dns"] },
    metricset: { name: metricset },
    agent: { type: "metricbeat", version: pick(random, ["8.11.1", "8.13.4"]) },
    event: { dataset: `system.${metricset}`, module: "system" },
    service: { type: "system" },
    system: { cpu: { total: { pct: random() < 0.02 ? null : Math.round(random() * 4000) / 1000 } } },
  };
}
