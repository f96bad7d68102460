import { test, expect } from "vitest";
import { startTestService, spawnCli, makeTempDir } from "./support/cli-harness.js";
import { writeJobsPipeline } from "./support/jobs-pipeline.js";
import { startPostgres } from "./support/postgres.js";

test("scratch", async () => {
  const pg = await startPostgres();
  const service = await startTestService({ seed: 11, density: 40, quota: 100000 });
  const dir = await makeTempDir("fleet-scratch");
  const file = await writeJobsPipeline(dir, { name: "nightly", hours: 6, limits: { concurrency: 2, quota_reserve: 5, quota: { ledger: "${MDQ_QUOTA_LEDGER}", priority: "high" } } });
  const cli = spawnCli(["run", file], { ...service.env, OUT: dir + "/out", MDQ_QUOTA_LEDGER: pg.url });
  const code = await cli.exited;
  console.log(code, cli.stderr().slice(0, 3000), cli.stdout());
  console.log(service.emulator.requestCounts());
  const q = spawnCli(["quota", file], { ...service.env, MDQ_QUOTA_LEDGER: pg.url });
  await q.exited; console.log(q.stdout(), q.stderr());
  await service.close(); await pg.close();
}, 60000);
