// Mistakes a new user makes at the command line, each answered with the fix instead of a crash:
// an unknown transform, `help COMMAND`, a misspelt command, linting without the deployment's
// variables, and a reader that closes stdout early (`run ... | head`).
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_USAGE } from "../src/cli/commands/run-usage.js";
import { runCli, spawnCli, testScope, writePipeline } from "./support/cli-harness.js";

const scope = testScope();
afterAll(scope.cleanUp);

const SOURCE = {
  kind: "jobs",
  application: "atr",
  app_type: ["ec2", "kubernetes"],
  domain: ["*"],
  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-10T02:00:00Z", slice: "1h" },
};

describe("an unknown transform name (regression: Cannot read properties of undefined)", () => {
  it.each(["validate", "plan", "run"])(
    "%s names it at line:column with the transforms there are",
    async (command) => {
      const dir = await scope.tempDir("unknown-transform");
      const file = await writePipeline(dir, {
        name: "unknown-transform",
        service: { embedded: true },
        source: SOURCE,
        transforms: [{ flatten: {} }, { renam: { a: "b" } }],
        sinks: [{ to: `${dir}/out`, format: "ndjson" }],
      });
      const result = await runCli([command, file]);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toContain("Cannot read properties");
      const line = /^ {2}(\S+):(\d+):(\d+): (.*)$/m.exec(result.stderr);
      expect(line?.[1]).toBe(file);
      expect(line?.[4]).toBe(
        'transforms[1].renam: unknown transform "renam"; did you mean "rename"? Transforms: select, drop, rename, flatten, redact, add, filter.',
      );
      // The line and column point at the misspelt key in the file.
      const text = await readFile(file, "utf8");
      const at = text.split("\n")[Number(line?.[2]) - 1]?.slice(Number(line?.[3]) - 1);
      expect(at).toMatch(/^renam:/);
    },
  );
});

describe("commands", () => {
  it("help run prints run's help, not the overview", async () => {
    const result = await runCli(["help", "run"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${RUN_USAGE}\n`);
  });

  it("a misspelt command gets a suggestion", async () => {
    const result = await runCli(["valdiate", "pipelines/demo.yaml"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "valdiate"; did you mean "validate"?');
  });
});

describe("validate --no-env", () => {
  const remote = {
    base_url: "${MDQ_BASE_URL}",
    auth_url: "${MDQ_AUTH_URL}",
    client_id: "${MDQ_CLIENT_ID}",
    client_secret: "${MDQ_CLIENT_SECRET}",
  };

  it("lints a pipeline whose variables are not set, naming them", async () => {
    const dir = await scope.tempDir("no-env");
    const file = await writePipeline(dir, {
      name: "no-env",
      service: remote,
      source: { ...SOURCE, page_size: "${PAGE_SIZE}" },
      sinks: [{ to: "${OUTPUT_ROOT}/jobs", format: "parquet" }],
    });
    const strict = await runCli(["validate", file]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain("environment variable MDQ_BASE_URL is not set");
    const lint = await runCli(["validate", "--no-env", file]);
    expect(lint.stderr).toBe("");
    expect(lint.code).toBe(0);
    expect(lint.stdout).toBe(
      `${file}: valid (not set, so not checked: MDQ_AUTH_URL, MDQ_BASE_URL, MDQ_CLIENT_ID, MDQ_CLIENT_SECRET, OUTPUT_ROOT, PAGE_SIZE)\n`,
    );
  });

  it("still checks everything else, and the values of variables that are set", async () => {
    const dir = await scope.tempDir("no-env-bad");
    const file = await writePipeline(dir, {
      name: "no-env-bad",
      service: remote,
      source: { ...SOURCE, app_type: ["ec2", "lambda"], page_size: "${PAGE_SIZE}" },
      sinks: [{ to: `${dir}/out`, format: "parquet", gzip: true }],
    });
    const result = await runCli(["validate", "--no-env", file], { env: { PAGE_SIZE: "many" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/:\d+:\d+: source\.app_type\[1\]: /);
    expect(result.stderr).toMatch(/:\d+:\d+: source\.page_size: /);
    expect(result.stderr).toMatch(/:\d+:\d+: sinks\[0\]\.gzip: gzip applies to format ndjson only/);
    expect(result.stderr).not.toContain("MDQ_BASE_URL");
  });
});

describe("a reader that closes stdout early", () => {
  it("run ... | head ends quietly with exit 75 (regression: EPIPE stack trace)", async () => {
    const dir = await scope.tempDir("epipe");
    const file = await writePipeline(dir, {
      name: "epipe",
      service: { embedded: true },
      source: { ...SOURCE, window: { start: "2026-03-10T00:00:00Z", end: "2026-03-11T00:00:00Z" } },
      sinks: [{ to: "-", format: "ndjson" }],
    });
    const cli = spawnCli(["run", file], {});
    // Like `head -1`: read the first chunk, then close the pipe.
    cli.child.stdout?.once("data", () => cli.child.stdout?.destroy());
    const code = await cli.exited;
    expect(cli.stderr()).not.toMatch(/EPIPE|\n\s+at |Unhandled/);
    expect(code).toBe(75);
  });
});

describe("a reader that closes stdout early says only what is true", () => {
  const stdoutPipeline = async (name: string, sinks: object[]): Promise<string> => {
    const dir = await scope.tempDir(name);
    return writePipeline(dir, {
      name,
      service: { embedded: true },
      source: { ...SOURCE, window: { start: "2026-03-10T00:00:00Z", end: "2026-03-11T00:00:00Z" } },
      sinks: sinks.map((sink) => JSON.parse(JSON.stringify(sink).replaceAll("DIR", dir)) as object),
    });
  };

  it("fields | head ends with exit 0 and says nothing of resuming (there is nothing to resume)", async () => {
    const cli = spawnCli(["fields", "--kind", "logs", "--application", "atr", "--app-type", "ec2"], {});
    // The reader is gone before the first line is written.
    cli.child.stdout?.destroy();
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).not.toMatch(/resume|EPIPE|\n\s+at /);
  });

  it("run of a stdout-only pipeline says a rerun starts over, not that it resumes", async () => {
    const file = await stdoutPipeline("epipe-only", [{ to: "-", format: "ndjson" }]);
    const cli = spawnCli(["run", file], {});
    cli.child.stdout?.once("data", () => cli.child.stdout?.destroy());
    expect(await cli.exited).toBe(75);
    expect(cli.stderr()).not.toContain("run the same command again to resume");
    expect(cli.stderr()).toContain(
      "Run stopped: the reader of stdout closed it. A pipeline that writes only to stdout keeps no state, so there is nothing to resume",
    );
    expect(cli.stderr()).toContain("stopped (stdout only: nothing to resume)");
    // Regression: the summary went on "(N cut short, redone by the next run)".
    expect(cli.stderr()).not.toContain("redone by the next run");
  });

  it("run with a file sink beside stdout says the committed slices are kept and a rerun exports the rest", async () => {
    const file = await stdoutPipeline("epipe-file", [
      { to: "-", format: "ndjson" },
      { to: "DIR/out", format: "ndjson" },
    ]);
    const cli = spawnCli(["run", file], {});
    cli.child.stdout?.once("data", () => cli.child.stdout?.destroy());
    expect(await cli.exited).toBe(75);
    expect(cli.stderr()).toContain(
      "Run stopped: the reader of stdout closed it. The committed slices are kept; run the same command again to export the rest.",
    );
  });
});

describe("a mistyped flag", () => {
  it.each([
    [["run", "--shrad", "1/2", "x.yaml"], 'unknown option "--shrad"; did you mean "--shard"?'],
    [["plan", "--jsno", "x.yaml"], 'unknown option "--jsno"; did you mean "--json"?'],
    [["run", "--forec", "x.yaml"], 'unknown option "--forec"; did you mean "--force"?'],
  ])("%j gets a did-you-mean", async (argv, expected) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${expected}`);
  });

  it("a flag like none lists the options there are", async () => {
    const result = await runCli(["fields", "--frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'unknown option "--frobnicate"; the options are --help, --kind, --application, --app-type, --json',
    );
  });
});

describe("the emulator on a port that is taken", () => {
  it("names the port and the fix instead of a bare EADDRINUSE (exit 2)", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    // Were the emulator to start after all, the test would still end.
    const stop = AbortSignal.timeout(10_000);
    try {
      const result = await runCli(["emulator", "--port", String(port)], { signal: stop });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `mdq-export emulator: port ${port} on 127.0.0.1 is already in use (EADDRINUSE): another process listens on 127.0.0.1:${port}`,
      );
      expect(result.stderr).toContain("choose another port with --port N (--port 0 picks a free one)");
      expect(result.stderr).not.toMatch(/^error: listen EADDRINUSE/m);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

describe("a missing secret", () => {
  it("points at MDQ_CLIENT_SECRET_FILE, never at a default written in the file", async () => {
    const dir = await scope.tempDir("missing-secret");
    const file = await writePipeline(dir, {
      name: "missing-secret",
      service: {
        base_url: "https://mdq.example.com",
        auth_url: "https://mdq.example.com",
        client_id: "abc",
        client_secret: "${MDQ_CLIENT_SECRET}",
      },
      source: SOURCE,
      sinks: [{ to: `${dir}/out`, format: "ndjson" }],
    });
    const result = await runCli(["validate", file], { env: {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "service.client_secret: environment variable MDQ_CLIENT_SECRET is not set; set it, or set MDQ_CLIENT_SECRET_FILE to the path of a file that holds the secret",
    );
    expect(result.stderr).not.toContain(":-default");
  });
});
