// The Kubernetes objects in deploy/kubernetes/: the fields a scheduler acts on (image, args, the
// secrets as files, the retry policy per exit code, Indexed completion with the shard count, the
// service account), what `kubectl apply -f deploy/kubernetes/` would create, and the ConfigMap's
// pipeline validated by the product's own validator with the pods' environment.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect } from "vitest";
import { parseAllDocuments } from "yaml";
import { parsePipeline } from "../src/config/load-pipeline.js";
import { emulatorEnv, REPO_ROOT, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";
import { defaultComponents } from "../src/components/environment.js";

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DIR = join(REPO_ROOT, "deploy/kubernetes");

async function load(file: string): Promise<Doc> {
  const docs = parseAllDocuments(await readFile(join(DIR, file), "utf8"));
  expect(docs).toHaveLength(1);
  const [doc] = docs;
  expect(doc?.errors).toEqual([]);
  return doc?.toJS() as Doc;
}

let cron: Doc;
let backfill: Doc;
let merge: Doc;
let configMap: Doc;
let secret: Doc;
let observability: Doc;
let serviceAccount: Doc;

const it = useEmulator({ density: 1 });

/** The pod spec of a CronJob or a Job. */
function podOf(object: Doc): Doc {
  return object.kind === "CronJob" ? object.spec.jobTemplate.spec.template.spec : object.spec.template.spec;
}
function jobSpecOf(object: Doc): Doc {
  return object.kind === "CronJob" ? object.spec.jobTemplate.spec : object.spec;
}
function containerOf(object: Doc): Doc {
  const containers = podOf(object).containers as Doc[];
  expect(containers).toHaveLength(1);
  return containers[0] as Doc;
}
function envOf(object: Doc): Record<string, string> {
  return Object.fromEntries((containerOf(object).env as Doc[]).map((entry) => [entry.name, entry.value]));
}

beforeAll(async () => {
  cron = await load("cronjob.yaml");
  backfill = await load("backfill-job.yaml");
  merge = await load("backfill-merge-job.yaml");
  configMap = await load("configmap.yaml");
  secret = await load("secret.yaml.example");
  observability = await load("observability-configmap.yaml");
  serviceAccount = await load("serviceaccount.yaml");
});

/** The files `kubectl apply -f deploy/kubernetes/` reads: .yaml, .yml and .json, not in subfolders. */
async function appliedFiles(): Promise<string[]> {
  const entries = await readdir(DIR, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ya?ml|json)$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

describe("deploy/kubernetes", () => {
  it("runs one image, as the CLI's entrypoint takes it, in every object", () => {
    const images = [cron, backfill, merge].map((object) => containerOf(object).image as string);
    expect(new Set(images).size).toBe(1);
    expect(images[0]).toMatch(/^[\w.-]+(\/[\w.-]+)+:\d+\.\d+\.\d+$/);
    expect(containerOf(cron).command).toBeUndefined();
    expect(containerOf(cron).args).toEqual(["run", "/pipelines/nightly-jobs.yaml"]);
    expect(containerOf(backfill).args.slice(0, 2)).toEqual(["run", "/pipelines/nightly-jobs.yaml"]);
    expect(containerOf(merge).args).toEqual(["merge-manifests", "/pipelines/nightly-jobs.yaml"]);
  });

  it("the nightly CronJob never overlaps and retries a bounded number of times", () => {
    expect(cron).toMatchObject({ apiVersion: "batch/v1", kind: "CronJob" });
    expect(cron.spec.concurrencyPolicy).toBe("Forbid");
    expect(cron.spec.schedule).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    const job = jobSpecOf(cron);
    expect(job.backoffLimit).toBeGreaterThanOrEqual(1);
    expect(job.activeDeadlineSeconds).toBeGreaterThan(0);
    expect(podOf(cron).restartPolicy).toBe("Never");
  });

  it("fails at once on exit 2 and does not count evictions, for every Job", () => {
    for (const object of [cron, backfill, merge]) {
      const rules = jobSpecOf(object).podFailurePolicy.rules as Doc[];
      const onExit = rules.find((rule) => rule.onExitCodes !== undefined);
      expect(onExit).toMatchObject({
        action: "FailJob",
        onExitCodes: { containerName: containerOf(object).name, operator: "In" },
      });
      expect(onExit?.onExitCodes.values).toContain(2);
      // Exit 75 (resumable) is retried by the shards and the nightly run; only the merge fails on it.
      expect(onExit?.onExitCodes.values.includes(75)).toBe(object === merge);
      // podFailurePolicy requires restartPolicy Never.
      expect(podOf(object).restartPolicy).toBe("Never");
    }
    for (const object of [cron, backfill]) {
      const rules = jobSpecOf(object).podFailurePolicy.rules as Doc[];
      expect(rules).toContainEqual({ action: "Ignore", onPodConditions: [{ type: "DisruptionTarget" }] });
    }
  });

  it("the backfill is an Indexed Job whose shard count is its completions", () => {
    expect(backfill).toMatchObject({ apiVersion: "batch/v1", kind: "Job" });
    expect(backfill.spec.completionMode).toBe("Indexed");
    expect(backfill.spec.parallelism).toBeLessThanOrEqual(backfill.spec.completions);
    expect(backfill.spec.backoffLimitPerIndex).toBeGreaterThanOrEqual(1);
    expect(envOf(backfill).MDQ_SHARD_COUNT).toBe(String(backfill.spec.completions));
    expect(envOf(merge).MDQ_SHARD_COUNT).toBe(String(backfill.spec.completions));
    // The index comes from Kubernetes (JOB_COMPLETION_INDEX), never from the manifest.
    expect(envOf(backfill).JOB_COMPLETION_INDEX).toBeUndefined();
    expect(containerOf(backfill).args).not.toContain("--shard");
    // Its own destination, so its merged manifest does not replace the nightly one.
    expect(envOf(backfill).MDQ_OUTPUT_PREFIX).toBe(envOf(merge).MDQ_OUTPUT_PREFIX);
    expect(envOf(cron).MDQ_OUTPUT_PREFIX).toBeUndefined();
  });

  it("reads the client id and secret as files from the Secret, never as values", () => {
    for (const object of [cron, backfill, merge]) {
      const env = containerOf(object).env as Doc[];
      expect(env.some((entry) => /CLIENT_(ID|SECRET)$/.test(entry.name))).toBe(false);
      const mount = (containerOf(object).volumeMounts as Doc[]).find((m) => m.name === "credentials");
      expect(mount).toMatchObject({ mountPath: "/var/run/secrets/mdq", readOnly: true });
      const volume = (podOf(object).volumes as Doc[]).find((v) => v.name === "credentials");
      expect(volume?.secret.secretName).toBe(secret.metadata.name);
      const keys = Object.keys(secret.stringData as Doc);
      expect(envOf(object).MDQ_CLIENT_ID_FILE).toBe(`${mount?.mountPath}/client-id`);
      expect(envOf(object).MDQ_CLIENT_SECRET_FILE).toBe(`${mount?.mountPath}/client-secret`);
      expect(keys).toEqual(["client-id", "client-secret"]);
      const pipelines = (podOf(object).volumes as Doc[]).find((v) => v.name === "pipelines");
      expect(pipelines?.configMap.name).toBe(configMap.metadata.name);
    }
  });

  it("runs as non-root on a read-only root filesystem, with the resources the benchmark measured", () => {
    for (const object of [cron, backfill, merge]) {
      expect(podOf(object).securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      const container = containerOf(object);
      expect(container.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"] },
      });
      // Exports peaked at 230-411 MB in bench/RESULTS.md (1M records, 4 slices, about one core busy);
      // the merge only reads manifests.
      expect(container.resources).toEqual(
        object === merge
          ? { requests: { cpu: "1", memory: "256Mi" }, limits: { cpu: "1", memory: "512Mi" } }
          : { requests: { cpu: "1", memory: "512Mi" }, limits: { cpu: "1", memory: "768Mi" } },
      );
      // The image's working directory is writable scratch.
      const mounts = (container.volumeMounts as Doc[]).map((mount) => mount.mountPath);
      expect(mounts).toEqual(expect.arrayContaining(["/data", "/tmp"]));
    }
  });

  it("the exports take the metrics port and the Pushgateway URL from a ConfigMap, and expose the port", () => {
    expect(observability).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
    const settings = observability.data as Record<string, string>;
    expect(settings["pushgateway-url"]).toMatch(/^https?:\/\/[^/]+/);
    expect(settings["metrics-port"]).toMatch(/^\d+$/);
    for (const object of [cron, backfill]) {
      const env = containerOf(object).env as Doc[];
      const fromConfigMap = (name: string): string | undefined => {
        const ref = env.find((entry) => entry.name === name)?.valueFrom?.configMapKeyRef;
        expect(ref?.name).toBe(observability.metadata.name);
        return ref?.key as string | undefined;
      };
      expect(fromConfigMap("MDQ_PUSHGATEWAY_URL")).toBe("pushgateway-url");
      expect(fromConfigMap("MDQ_METRICS_PORT")).toBe("metrics-port");
      expect(fromConfigMap("MDQ_LOG_LEVEL")).toBe("log-level");
      const port = Number(settings["metrics-port"]);
      expect(containerOf(object).ports).toContainEqual({ name: "metrics", containerPort: port });
      const annotations = (object.kind === "CronJob" ? object.spec.jobTemplate.spec : object.spec).template
        .metadata.annotations as Record<string, string>;
      expect(annotations).toMatchObject({
        "prometheus.io/scrape": "true",
        "prometheus.io/port": String(port),
      });
    }
  });

  it("applies to any cluster: only built-in kinds, no Secret to overwrite a real one, the Operator's rule apart", async () => {
    const applied = await appliedFiles();
    expect(applied).toEqual([
      "backfill-job.yaml",
      "backfill-merge-job.yaml",
      "configmap.yaml",
      "cronjob.yaml",
      "observability-configmap.yaml",
      "serviceaccount.yaml",
    ]);
    const kinds = await Promise.all(applied.map(async (file) => load(file)));
    for (const object of kinds)
      expect(["v1/ConfigMap", "v1/ServiceAccount", "batch/v1/CronJob", "batch/v1/Job"]).toContain(
        `${object.apiVersion}/${object.kind}`,
      );
    // The Secret is an example (placeholders), created with kubectl create secret as the docs say.
    expect(secret).toMatchObject({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "mdq-export-credentials" },
    });
    const operations = await readFile(join(REPO_ROOT, "docs/operations.md"), "utf8");
    expect(operations).toContain("kubectl create secret generic mdq-export-credentials");
    expect(operations).toContain("kubectl apply -f deploy/kubernetes/prometheus-operator/");
    // The PrometheusRule needs the Operator's CRDs: it lives in a folder of its own.
    const rules = parseAllDocuments(
      await readFile(join(DIR, "prometheus-operator/prometheus-rule.yaml"), "utf8"),
    );
    expect(rules[0]?.toJS()).toMatchObject({
      apiVersion: "monitoring.coreos.com/v1",
      kind: "PrometheusRule",
    });
  });

  it("every pod runs as the service account that carries the S3 role (IRSA or Pod Identity)", async () => {
    expect(serviceAccount).toMatchObject({ apiVersion: "v1", kind: "ServiceAccount" });
    expect(serviceAccount.metadata.annotations["eks.amazonaws.com/role-arn"]).toMatch(
      /^arn:aws:iam::\d{12}:role\/[\w+=,.@-]+$/,
    );
    for (const object of [cron, backfill, merge]) {
      expect(podOf(object).serviceAccountName).toBe(serviceAccount.metadata.name);
      // The exporter never calls the Kubernetes API; IRSA and Pod Identity mount their own token.
      expect(podOf(object).automountServiceAccountToken).toBe(false);
    }
    const operations = await readFile(join(REPO_ROOT, "docs/operations.md"), "utf8");
    expect(operations).toMatch(/IRSA/);
    expect(operations).toContain("aws eks create-pod-identity-association");
  });

  it("the container docs mount a host directory the container can write to", async () => {
    const operations = await readFile(join(REPO_ROOT, "docs/operations.md"), "utf8");
    const block = /```sh\n(docker build[\s\S]*?)```/.exec(operations)?.[1] ?? "";
    const lines = block.split("\n");
    const run = lines.findIndex((line) => line.includes("/data/out"));
    expect(run).toBeGreaterThan(0);
    // Created by the user before docker run (Docker would create it owned by root), written as the user.
    expect(lines.slice(0, run).some((line) => /^mkdir -p out\b/.test(line))).toBe(true);
    expect(lines[run]).toContain('--user "$(id -u):$(id -g)"');
  });

  it("the ConfigMap's pipeline yields the Athena and BigQuery DDL offline, from its pin", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const text = configMap.data["nightly-jobs.yaml"] as string;
    const pipeline = join(workspace.dir, "nightly-jobs.yaml");
    await writeFile(pipeline, text);
    // The pin as `mdq-export schema` prints it, from a local copy of the sink (the emulator has the kind).
    const local = join(workspace.dir, "local.yaml");
    await writeFile(local, text.replace(/to: s3:\/\/\S+/, `to: ${join(workspace.dir, "out")}`));
    const schema = await runCli(["schema", local, "--sink", "1", "--json"], { env: emulatorEnv(emulator) });
    expect(schema.code, schema.stderr).toBe(0);
    const pin = join(workspace.dir, "nightly-jobs.schema.json");
    await writeFile(pin, schema.stdout);
    for (const dialect of ["athena", "bigquery"]) {
      const ddl = await runCli(["ddl", pipeline, "--dialect", dialect, "--pin", pin], {
        env: { MDQ_BUCKET: envOf(cron).MDQ_BUCKET },
      });
      expect(ddl.stderr, dialect).toBe("");
      expect(ddl.code, dialect).toBe(0);
      expect(ddl.stdout).toContain("`job_state`");
    }
  });

  it("the ConfigMap's pipeline validates with each pod's environment and the mounted secret files", async ({
    workspace,
  }) => {
    const text = configMap.data["nightly-jobs.yaml"] as string;
    await writeFile(join(workspace.dir, "client-id"), "mdq-client\n");
    await writeFile(join(workspace.dir, "client-secret"), "not-a-real-secret\n");
    for (const object of [cron, backfill, merge]) {
      const env = {
        ...envOf(object),
        MDQ_CLIENT_ID_FILE: join(workspace.dir, "client-id"),
        MDQ_CLIENT_SECRET_FILE: join(workspace.dir, "client-secret"),
      };
      const pipeline = parsePipeline(text, "nightly-jobs.yaml", { components: defaultComponents(), env });
      expect(pipeline.service).toMatchObject({
        mode: "remote",
        client_id: "mdq-client",
        client_secret: "not-a-real-secret",
      });
      const prefix = envOf(object).MDQ_OUTPUT_PREFIX ?? "nightly";
      expect(pipeline.sinks[0]?.to).toBe(`s3://${envOf(object).MDQ_BUCKET}/${prefix}/jobs`);
    }
  });
});
