import { describe, expect, it } from "vitest";
import { GatewayError, encodeErrorContext, fromGrpcDetails } from "./index.js";

describe("an error across gRPC", () => {
  it("keeps its code, message and context (action, retry-after, allowed models, param)", () => {
    const sent = new GatewayError("model_not_allowed", "Use one of these.", { action: "contact_org_admin", allowed_models: ["a", "b"], param: "model", retry_after_s: 3 });
    const got = fromGrpcDetails(`${sent.code}:${sent.message}`, "internal_error", encodeErrorContext(sent.context));
    expect(got).toMatchObject({ code: "model_not_allowed", message: "Use one of these.", context: { action: "contact_org_admin", allowed_models: ["a", "b"], param: "model", retry_after_s: 3 } });
  });

  it("drops what is not a known context field, and survives a garbled context", () => {
    expect(fromGrpcDetails("insufficient_credits:low", "internal_error", '{"action":"top_up","secret":"x"}').context).toEqual({ action: "top_up" });
    expect(fromGrpcDetails("insufficient_credits:low", "internal_error", "{not json").context).toEqual({});
    expect(encodeErrorContext({})).toBeUndefined();
  });
});
