import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as protoLoader from "@grpc/proto-loader";
import { describe, expect, it } from "vitest";
import { LOADER_OPTIONS, type HealthCheckResponse, type Org, type OrgInput } from "./index.js";

const generator = fileURLToPath(new URL("../gen-types.mjs", import.meta.url));

describe("generated message types", () => {
  it("are generated with the options the loader decodes with", () => {
    const flags = JSON.parse(execFileSync(process.execPath, [generator, "--options"], { encoding: "utf8" }));
    const { includeDirs: _, longs, enums, ...rest } = LOADER_OPTIONS;
    expect(flags).toEqual({ ...rest, longs: longs?.name, enums: enums?.name });
  });

  it("read an int64 as a number, an enum as its name and an absent field as its default, as the generated types say", () => {
    const protos = fileURLToPath(new URL("../../../proto", import.meta.url));
    const def = protoLoader.loadSync(["gateway/control/v1/control.proto", "grpc/health/v1/health.proto"], { ...LOADER_OPTIONS, includeDirs: [protos] });
    const roundTrip = (service: string, method: string, message: object) => {
      const m = (def[service] as protoLoader.ServiceDefinition)[method]!;
      return m.responseDeserialize(m.responseSerialize(message));
    };
    // Typed as the generated reader's shape: a field the type lacks or adds fails the typecheck, a value the loader reads otherwise fails here.
    const org: Org = {
      id: "o",
      name: "",
      enabled_models: [],
      in_trial: false,
      created_at_ms: 0,
      monthly_budget_minor: 9007199254740991,
      output_limit: "",
      time_zone: "",
      // An absent message field is null.
      budget: null,
      end_user_source: "",
      end_user_budget: null,
      end_user_overrides: 0,
    };
    const sent: OrgInput = { id: "o", monthly_budget_minor: "9007199254740991" };
    expect(roundTrip("gateway.control.v1.AdminService", "SetOrgBudget", sent)).toEqual(org);
    const health: HealthCheckResponse = { status: "SERVING" };
    expect(roundTrip("grpc.health.v1.Health", "Check", { status: 1 })).toEqual(health);
  });
});
