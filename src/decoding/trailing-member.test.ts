import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { trailingMember } from "./trailing-member.js";

/** A small seeded generator, so a failure names the case that found it. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const AWKWARD_TEXTS = [
  '"',
  "\\",
  '\\"',
  '"\\',
  "}",
  "]",
  "{[",
  ":",
  ",",
  "é",
  "😀",
  "\u2028",
  "\n",
  "meta",
  "",
];

function randomText(next: () => number): string {
  let text = "";
  const parts = Math.floor(next() * 4);
  for (let k = 0; k < parts; k++) text += AWKWARD_TEXTS[Math.floor(next() * AWKWARD_TEXTS.length)];
  return text;
}

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 4 : 6));
  if (pick === 0) return randomText(next);
  if (pick === 1) return Math.floor(next() * 2000) - 1000 + (next() < 0.3 ? 0.5 : 0);
  if (pick === 2) return next() < 0.5 ? null : next() < 0.5;
  if (pick === 3) return `s${Math.floor(next() * 100)}`;
  if (pick === 4) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let k = Math.floor(next() * 4); k > 0; k--)
    object[randomText(next) + k] = randomValue(next, depth + 1);
  return object;
}

/** An envelope whose members come in a random order, spaced or not. */
function randomEnvelope(seed: number): string {
  const next = random(seed);
  const members: [string, unknown][] = [
    ["data", { hits: randomValue(next, 1), total: 5 }],
    ["meta", { pagination: { pit_id: randomText(next), search_after: [randomText(next), 3] } }],
  ];
  for (let k = Math.floor(next() * 3); k > 0; k--) members.push([randomText(next), randomValue(next, 1)]);
  members.sort(() => next() - 0.5);
  const object = Object.fromEntries(members);
  return next() < 0.5 ? JSON.stringify(object) : JSON.stringify(object, null, next() < 0.5 ? 2 : "\t");
}

describe("trailingMember", () => {
  it("reads a member after the hits without reading the hits", () => {
    const body = Buffer.from(
      '{"data":{"hits":[{"_id":"a\\"}"}],"total":1},"meta":{"pagination":{"pit_id":"p\\\\","search_after":[1,"x"]}}}',
    );
    expect(trailingMember(body, "meta")).toEqual({ pagination: { pit_id: "p\\", search_after: [1, "x"] } });
  });

  it("finds what JSON.parse finds in the whole body, whatever the members' order and spacing", () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const text = randomEnvelope(seed);
      const expected = (JSON.parse(text) as Record<string, unknown>)["meta"];
      expect(trailingMember(Buffer.from(text), "meta"), `seed ${seed}: ${text}`).toEqual(expected);
    }
  });

  it("keeps the last of a repeated key, as JSON.parse does", () => {
    const text = '{"meta":{"n":1},"data":{"hits":[]},"meta":{"n":2}}';
    expect(trailingMember(Buffer.from(text), "meta")).toEqual({ n: 2 });
  });

  it("answers nothing rather than something wrong when the bytes start inside the body", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const whole = Buffer.from(randomEnvelope(seed));
      const expected = (JSON.parse(whole.toString("utf8")) as Record<string, unknown>)["meta"];
      for (let cut = 1; cut < whole.length; cut++) {
        const found = trailingMember(whole.subarray(cut), "meta");
        if (found !== undefined) expect(found, `seed ${seed}, cut at ${cut}`).toEqual(expected);
      }
    }
  });

  // What comes before the member found is not checked: the pager checks the envelope once it is parsed.
  it("answers nothing for bytes that are not an object's end", () => {
    for (const text of ["", "   ", "[1,2]", '{"meta":', '{"meta":1', '"meta"}', '{"meta" 1}', "}"])
      expect(trailingMember(Buffer.from(text), "meta"), text).toBeUndefined();
    expect(trailingMember(Buffer.from('{"data":1}'), "meta")).toBeUndefined();
  });
});
