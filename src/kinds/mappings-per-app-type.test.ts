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

  it("keeps a field two app types map with two types twice: no app type's type decides for the other", async () => {
    const answers: Readonly<Record<string, { name: string; type: string }[]>> = {
      ec2: [{ name: "status", type: "long" }],
      kubernetes: [{ name: "status", type: "keyword" }],
    };
    const joined = await mappingsPerAppType(["ec2", "kubernetes"], async (appType) => answers[appType] ?? []);
    expect(columnsFromMappings(joined)).toEqual([
      { name: "status", type: "int64" },
      { name: "status", type: "string" },
    ]);
  });
});
