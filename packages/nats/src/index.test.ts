import { describe, expect, it } from "vitest";
import { natsAuthProblem, natsCredentialsFromEnv, redactNatsUrl } from "./index.js";

describe("NATS credentials", () => {
  it("takes a user and a password together, or neither, and names the variables, never a value", () => {
    expect(natsCredentialsFromEnv("LEDGER_", {})).toEqual({ credentials: undefined, problems: [] });
    expect(natsCredentialsFromEnv("LEDGER_", { LEDGER_NATS_USER: "ledger", LEDGER_NATS_PASSWORD: "Pw0123456789" })).toEqual({ credentials: { user: "ledger", pass: "Pw0123456789" }, problems: [] });
    // An empty variable is unset (a blank line in a manifest).
    expect(natsCredentialsFromEnv("LEDGER_", { LEDGER_NATS_USER: "", LEDGER_NATS_PASSWORD: "" }).credentials).toBeUndefined();
    const half = natsCredentialsFromEnv("DATA_PLANE_", { DATA_PLANE_NATS_PASSWORD: "secret-value-0123" });
    expect(half.problems).toEqual(["DATA_PLANE_NATS_USER: needs DATA_PLANE_NATS_PASSWORD, and the other way round"]);
    expect(half.problems.join()).not.toContain("secret-value-0123");
  });

  it("masks a password written into a server URL, in every server of the list", () => {
    expect(redactNatsUrl("nats://ledger:Pw0123@nats-0:4222, nats://ledger:Pw0123@nats-1:4222,nats://nats-2:4222")).toBe(
      "nats://ledger:***@nats-0:4222, nats://ledger:***@nats-1:4222,nats://nats-2:4222",
    );
    expect(redactNatsUrl("nats://127.0.0.1:4222")).toBe("nats://127.0.0.1:4222");
  });

  it("says a refused login without the password, and nothing for other failures", () => {
    const refused = new Error("Authorization Violation");
    expect(natsAuthProblem(refused, { user: "ledger", pass: "Pw0123456789" })).toBe('NATS refused the credentials of user "ledger"');
    expect(natsAuthProblem(refused, undefined)).toBe("NATS requires credentials: none are configured (or the ones in its URL are wrong)");
    expect(natsAuthProblem(new Error("connection refused"), { user: "ledger", pass: "x" })).toBeUndefined();
  });
});
