import { afterAll, beforeAll, expect, it } from "vitest";
import { createControlPlane, loadConfig } from "@gateway/control-plane";
import { adminService, createClient } from "@gateway/proto";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack("trial_outage");
});
afterAll(async () => {
  await stack?.stop();
});

it("a top-up made while the control-plane is down still ends the trial once it is back", async () => {
  const org = await stack.admin.CreateOrg({ name: "outage-org" });
  expect(org.in_trial).toBe(true);
  await stack.control.stop();
  await stack.ledgerClient.TopUp({ org_id: org.id, amount_minor: 5_000_000, idempotency_key: "outage-topup" });

  const again = createControlPlane(loadConfig(stack.controlConfig));
  await again.start();
  const admin = createClient(adminService(), `127.0.0.1:${again.grpcPort}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${stack.adminToken}` } });
  try {
    await eventually(
      async () => {
        const { orgs } = await admin.ListOrgs({});
        return orgs.find((o) => o.id === org.id && !o.in_trial);
      },
      5_000,
      "trial ended after the control-plane came back",
    );
  } finally {
    admin.close();
    await again.stop();
  }
});
