// The Kubernetes objects in deploy/kubernetes/: the fields a scheduler acts on (image, args, the
// secrets as files, the retry policy per exit code, Indexed completion with the shard count), and
// the ConfigMap's pipeline validated by the product's own validator with the pods' environment.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { parsePipeline } from "../src/config/load-pipeline.js";
import { REPO_ROOT } from "./support/cli-harness.js";

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
let secretsDir = "";

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
  secret = await load("secret.yaml");
  observability = await load("observability-configmap.yaml");
  secretsDir = await mkdtemp(join(tmpdir(), "mdq-k8s-secrets-"));
});
afterAll(async () => {
  await rm(secretsDir, { recursive: true, force: true });
});

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

  it("the ConfigMap's pipeline validates with each pod's environment and the mounted secret files", async () => {
    const text = configMap.data["nightly-jobs.yaml"] as string;
    await writeFile(join(secretsDir, "client-id"), "mdq-client\n");
    await writeFile(join(secretsDir, "client-secret"), "not-a-real-secret\n");
    for (const object of [cron, backfill, merge]) {
      const env = {
        ...envOf(object),
        MDQ_CLIENT_ID_FILE: join(secretsDir, "client-id"),
        MDQ_CLIENT_SECRET_FILE: join(secretsDir, "client-secret"),
      };
      const pipeline = parsePipeline(text, "nightly-jobs.yaml", { env });
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
