import { describe, expect, it } from "vitest";
import { columnsFromMappings } from "../core/columns-from-mappings.js";
import { mappingsPerAppType } from "./mappings-per-app-type.js";

describe("mappingsPerAppType", () => {
  it("joins the app types' mappings, each name and type once, sorted by name", async () => {
    const answers: Readonly<Record<string, { name: string; type: string }[]>> = {
      ec2: [
        { name: "message", type: "text" },
        { name: "bytes", type: "long" },
      ],
      kubernetes: [
        { name: "message", type: "text" },
        { name: "pod", type: "keyword" },
      ],
    };
    const joined = await mappingsPerAppType(
      ["ec2", "kubernetes", "ec2"],
      async (appType) => answers[appType] ?? [],
    );
    expect(joined).toEqual([
      { name: "bytes", type: "long" },
      { name: "message", type: "text" },
      { name: "pod", type: "keyword" },
    ]);
  });

  it("a field two app types map with two types stays twice, and its column holds both (v1 logs: alias and date)", async () => {
    const answers: Readonly<Record<string, { name: string; type: string }[]>> = {
      ec2: [
        { name: "status", type: "long" },
        { name: "timestamp", type: "alias" },
      ],
      kubernetes: [
        { name: "status", type: "keyword" },
        { name: "timestamp", type: "date" },
      ],
    };
    const joined = await mappingsPerAppType(["ec2", "kubernetes"], async (appType) => answers[appType] ?? []);
    expect(joined).toEqual([
      { name: "status", type: "long" },
      { name: "status", type: "keyword" },
      { name: "timestamp", type: "alias" },
      { name: "timestamp", type: "date" },
    ]);
    expect(columnsFromMappings(joined)).toEqual([
      { name: "status", type: "string" },
      { name: "timestamp", type: "timestamp" },
    ]);
  });
});
