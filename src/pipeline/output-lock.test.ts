import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { LOCK_LEASE_MS, MIN_LOCK_LEASE_MS, leaseFromEnv } from "./output-lock.js";

describe("the lock's lease from MDQ_LOCK_LEASE_MS", () => {
  it("takes a whole number of milliseconds, the default when unset", () => {
    expect(leaseFromEnv({ MDQ_LOCK_LEASE_MS: "5000" })).toBe(5000);
    expect(leaseFromEnv({ MDQ_LOCK_LEASE_MS: String(MIN_LOCK_LEASE_MS) })).toBe(MIN_LOCK_LEASE_MS);
    expect(leaseFromEnv({})).toBe(LOCK_LEASE_MS);
    expect(leaseFromEnv({ MDQ_LOCK_LEASE_MS: "" })).toBe(LOCK_LEASE_MS);
  });

  it("refuses a value that is not one, or too short to renew, naming the variable and the value", () => {
    for (const value of ["abc", "10", "-5", "1500.5", "Infinity"]) {
      expect(() => leaseFromEnv({ MDQ_LOCK_LEASE_MS: value })).toThrow(ConfigError);
      expect(() => leaseFromEnv({ MDQ_LOCK_LEASE_MS: value })).toThrow(
        `MDQ_LOCK_LEASE_MS must be a whole number of milliseconds from ${MIN_LOCK_LEASE_MS} up, found "${value}"`,
      );
    }
  });
});
