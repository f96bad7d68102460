// Side channels never change an export's outcome: hostile Pushgateways (an answer that drips, one of
// megabytes, one echoing the credentials) cost a short warning and the process still exits on time;
// the report's folder and the metrics port are checked before the first request (exit 2 with the
// fix); the report is never written through a planted link; the metrics server listens where it is
// told and caps its connections. Gateways are real HTTP servers, runs are real CLI runs.
import { createServer as createHttpServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer as createTcpServer, connect } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { lstat, mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { startEmulator } from "../src/emulator/server.js";

import { METRICS_MAX_CONNECTIONS } from "../src/observability/metrics-server.js";
import type { RunReport } from "../src/observability/run-report.js";
import { emulatorEnv, runCli, spawnCli, waitFor } from "./support/cli-harness.js";
import type { CliResult, Workspace } from "./support/cli-harness.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";
import { freePort } from "./support/prometheus.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ seed: 21, density: 5 }, { preset: false });

/** A gateway of the test's own: `answer` handles every push once its body has arrived. */
async function hostileGateway(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function pipelineFile(
  workspace: Workspace,
  name: string,
  endHour = 3,
): Promise<{ file: string; out: string }> {
  const out = join(workspace.dir, name);
  const file = await workspace.write(`${name}.yaml`, jobsPipelineYaml({ name, out, endHour }));
  return { file, out };
}

function pushWarnings(result: CliResult): Record<string, unknown>[] {
  return result.logs.filter(
    (line) => line.msg === "Pushing metrics to the Pushgateway failed; the export goes on.",
  );
}

describe("a hostile Pushgateway", () => {
  it("that answers headers and then drips a byte every 2 s: the process still exits after the push deadline", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const drips = new Set<NodeJS.Timeout>();
    const gateway = await hostileGateway((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const drip = setInterval(() => res.write("."), 2000);
      drips.add(drip);
      res.on("close", () => clearInterval(drip));
    });
    try {
      const { file, out } = await pipelineFile(workspace, "push-drip");
      const started = Date.now();
      const cli = spawnCli(["run", file, "--pushgateway", gateway.url, "--log-format", "json"], {
        ...emulatorEnv(emulator),
        MDQ_PUSH_TIMEOUT_SECONDS: "2",
      });
      const ended = await Promise.race([
        cli.exited,
        new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 30_000)),
      ]);
      if (ended === "hung") cli.child.kill("SIGKILL");
      expect(ended, cli.stderr()).toBe(0);
      // The first push and the last each end at their 2 s deadline; the export itself takes little.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(cli.stderr()).toContain("no complete answer within 2s");
      expect(JSON.parse(await readFile(join(out, "_manifest.json"), "utf8"))).toMatchObject({
        complete: true,
      });
    } finally {
      for (const drip of drips) clearInterval(drip);
      await gateway.close();
    }
  }, 40_000);

  it("that answers an error of 32 MB: read up to the cap, a one-line warning, exit 0", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const total = 32 * 1024 * 1024;
    let sentWhole = false;
    const gateway = await hostileGateway((_req, res) => {
      res.writeHead(400, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      let sent = 0;
      const more = (): void => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        if (sent >= total && !res.destroyed) res.end(() => (sentWhole = true));
      };
      more();
    });
    try {
      const { file } = await pipelineFile(workspace, "push-huge");
      const result = await runCli(["run", file, "--pushgateway", gateway.url], {
        env: emulatorEnv(emulator),
      });
      expect(result.code, result.stderr.slice(0, 2000)).toBe(0);
      const warnings = pushWarnings(result);
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      for (const warning of warnings) {
        expect(String(warning.error)).toContain("HTTP 400");
        expect(String(warning.error).length).toBeLessThan(1000);
      }
      expect(result.stderr.length).toBeLessThan(100_000);
      expect(sentWhole).toBe(false);
    } finally {
      await gateway.close();
    }
  });

  it("that echoes the Authorization header: the URL's credentials reach no log line in any encoding", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const user = "ci-bot";
    const password = "p@ss/w0rd-42";
    const basic = Buffer.from(`${user}:${password}`).toString("base64");
    const received: (string | undefined)[] = [];
    const gateway = await hostileGateway((req, res) => {
      received.push(req.headers.authorization);
      const echoed = req.headers.authorization ?? "";
      res.writeHead(401, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: `refused Authorization: ${echoed}`,
          headers: { authorization: echoed },
          token: echoed.replace(/^Basic /, ""),
          user: `${user}:${password}`,
          url: `${req.headers.host}${req.url} as ${encodeURIComponent(`http://${user}:${password}@gateway`)}`,
        }),
      );
    });
    try {
      const { file } = await pipelineFile(workspace, "push-echo");
      const credentialed = gateway.url.replace("http://", `http://${user}:${encodeURIComponent(password)}@`);
      const result = await runCli(["run", file, "--pushgateway", credentialed], {
        env: emulatorEnv(emulator),
      });
      expect(result.code, result.stderr).toBe(0);
      // The credentials were used (Basic), and the gateway sent them back.
      expect(received[0]).toBe(`Basic ${basic}`);
      expect(pushWarnings(result).length).toBeGreaterThanOrEqual(1);
      expect(result.stderr).toContain("[redacted]");
      for (const leak of [basic, basic.replace(/=+$/, ""), password, encodeURIComponent(password), "w0rd-42"])
        expect(result.stderr).not.toContain(leak);
    } finally {
      await gateway.close();
    }
  });
});

describe("--pushgateway that is not an http(s) URL", () => {
  it("is refused with exit 2, showing no password it carries", async ({ service, workspace }) => {
    const { emulator } = service;
    const { file } = await pipelineFile(workspace, "push-not-a-url");
    for (const url of [
      "ci:pa55-w0rd@gateway:9091",
      "ftp://ci:pa55-w0rd@gateway:9091",
      "http://ci:pa55-w0rd@[bad",
    ]) {
      const result = await runCli(["run", file, "--pushgateway", url], { env: emulatorEnv(emulator) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain("is not an http:// or https:// URL");
      expect(result.stderr).not.toContain("pa55-w0rd");
    }
  });
});

describe("--report", () => {
  it("into a missing folder stops before the first request with exit 2 and the fix", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipelineFile(workspace, "report-missing-folder");
    const before = emulator.requestCount();
    const report = join(workspace.dir, "no-such-folder", "report.json");
    const result = await runCli(["run", file, "--report", report], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`the folder "${join(workspace.dir, "no-such-folder")}" does not exist`);
    expect(result.stderr).toContain("create it first");
    expect(emulator.requestCount()).toBe(before);
    await expect(readdir(out)).rejects.toThrow();
  });

  it("that cannot be written when a pipeline is refused is an error line; the refusal's exit 2 stands", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const file = await workspace.write("refused.yaml", "name: refused\nsource: {}\n");
    const report = join(workspace.dir, "no-such-folder-either", "report.json");
    const result = await runCli(["run", file, "--report", report, "--log-format", "json"], {
      env: emulatorEnv(emulator),
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("refused.yaml");
    expect(result.logs).toContainEqual(
      expect.objectContaining({
        level: "error",
        report,
        error: "ENOENT",
        msg: "The run report could not be written; the run's outcome and exit code stand.",
      }),
    );
  });

  it("never writes through a link planted at the old temporary name or at the report's own name", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file } = await pipelineFile(workspace, "report-links");
    const folder = join(workspace.dir, "report-links-folder");
    await mkdir(folder);
    const victim = join(workspace.dir, "victim.txt");
    const victimOfName = join(workspace.dir, "victim-of-name.txt");
    await writeFile(victim, "keep me\n");
    await writeFile(victimOfName, "keep me too\n");
    const report = join(folder, "report.json");
    // runCli runs in this process: the old temporary name was `<report>.tmp-<this pid>`.
    await symlink(victim, `${report}.tmp-${process.pid}`);
    await symlink(victimOfName, report);
    const result = await runCli(["run", file, "--report", report], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(victim, "utf8")).toBe("keep me\n");
    expect(await readFile(victimOfName, "utf8")).toBe("keep me too\n");
    expect((await lstat(report)).isFile()).toBe(true);
    expect((JSON.parse(await readFile(report, "utf8")) as RunReport).outcome).toBe("complete");
    // Nothing left beside it but the planted link.
    expect((await readdir(folder)).sort()).toEqual(["report.json", `report.json.tmp-${process.pid}`]);
  });
});

/** Whether a connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("--metrics-port", () => {
  it("on a port in use stops before the first request with exit 2 and the fix", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const blocker = createTcpServer();
    await new Promise<void>((resolve) => blocker.listen(0, "0.0.0.0", resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const { file } = await pipelineFile(workspace, "metrics-busy");
      const before = emulator.requestCount();
      const result = await runCli(["run", file, "--metrics-port", String(port)], {
        env: emulatorEnv(emulator),
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`--metrics-port ${port} on 0.0.0.0 is already in use`);
      expect(result.stderr).toContain("pick another --metrics-port");
      expect(emulator.requestCount()).toBe(before);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it("caps its connections: 200 idle ones keep no more than the cap open, and the export completes", async ({
    workspace,
  }) => {
    // Slow enough that the run is still going a second after its metrics port opened (the first
    // pages go out with the mappings request, so the run is a round trip shorter than its requests).
    const slow = await startEmulator({ seed: 22, density: 5, faults: { latencyMs: 800 } });
    const port = await freePort();
    const sockets: Socket[] = [];
    try {
      const { file, out } = await pipelineFile(workspace, "metrics-cap");
      const run = runCli(["run", file, "--metrics-port", String(port)], { env: emulatorEnv(slow) });
      let finished = false;
      void run.finally(() => (finished = true));
      await waitFor(async () => {
        if (finished) throw new Error("the run ended before its metrics port opened");
        return accepts("127.0.0.1", port);
      }, "the metrics port to open");
      const open = new Set<Socket>();
      for (let i = 0; i < 200; i++) {
        const socket = connect(port, "127.0.0.1");
        socket.on("error", () => undefined);
        socket.once("connect", () => open.add(socket));
        socket.once("close", () => open.delete(socket));
        sockets.push(socket);
      }
      // The server closes what is over its cap as it arrives.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(finished).toBe(false);
      expect(open.size).toBeGreaterThan(0);
      expect(open.size).toBeLessThanOrEqual(METRICS_MAX_CONNECTIONS);
      for (const socket of sockets) socket.destroy();
      const result = await run;
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(await readFile(join(out, "_manifest.json"), "utf8"))).toMatchObject({
        complete: true,
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await slow.close();
    }
  }, 30_000);

  it("--metrics-address puts it on the address given, and only there", async ({ workspace }) => {
    const slow = await startEmulator({ seed: 23, density: 5, faults: { latencyMs: 400 } });
    const port = await freePort();
    try {
      const { file } = await pipelineFile(workspace, "metrics-address");
      const run = runCli(["run", file, "--metrics-port", String(port), "--metrics-address", "127.0.0.2"], {
        env: emulatorEnv(slow),
      });
      let finished = false;
      void run.finally(() => (finished = true));
      await waitFor(async () => {
        if (finished) throw new Error("the run ended before its metrics port opened");
        return accepts("127.0.0.2", port);
      }, "the metrics port to open on 127.0.0.2");
      const scrape = await fetch(`http://127.0.0.2:${port}/metrics`);
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain("mdq_export_requests_total");
      expect(await accepts("127.0.0.1", port)).toBe(false);
      expect((await run).code).toBe(0);
    } finally {
      await slow.close();
    }
  }, 30_000);
});
