import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import type { ErrorBody, UsageBody } from "../support/api.ts";

let stack: Stack;
let client: OpenAI;
beforeAll(async () => {
  stack = await startStack("images");
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${stack.demo.secret}` });
async function costOf(id: string | null): Promise<number> {
  const r = (await (await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: auth() })).json()) as UsageBody;
  return r.cost_credits_minor;
}

describe("images through the openai SDK", () => {
  it("returns URLs and bills n images at the size and quality price", async () => {
    const { data, response } = await client.images.generate({ model: "gw-image", prompt: "a lighthouse", n: 2, size: "1024x1024", quality: "hd" }).withResponse();
    expect(data.data).toHaveLength(2);
    expect(data.data![0]!.url).toMatch(/^http/);
    expect(response.headers.get("x-gateway-provider")).toBe("fake");
    expect(await costOf(response.headers.get("x-gateway-trace-id"))).toBe(2 * 80_000);
    const record = (await (await fetch(`${stack.baseUrl()}/usage/${response.headers.get("x-gateway-trace-id")}`, { headers: auth() })).json()) as UsageBody;
    expect(record.line_items).toEqual([{ item: "images", quantity: 2, unit_price_minor: 80_000, per: "image", attributes: { size: "1024x1024", quality: "hd" } }]);
  });

  it("uses the model's default size when the request names none, as the OpenAI API does", async () => {
    const { data, response } = await client.images.generate({ model: "gw-image", prompt: "a lighthouse" }).withResponse();
    expect(data.data).toHaveLength(1);
    const record = (await (await fetch(`${stack.baseUrl()}/usage/${response.headers.get("x-gateway-trace-id")}`, { headers: auth() })).json()) as UsageBody;
    expect(record.line_items).toEqual([{ item: "images", quantity: 1, unit_price_minor: 40_000, per: "image", attributes: { size: "1024x1024", quality: "standard" } }]);
  });

  it("returns base64 images when asked", async () => {
    const r = await client.images.generate({ model: "gw-image", prompt: "a lighthouse", response_format: "b64_json", size: "1024x1024" });
    expect(Buffer.from(r.data![0]!.b64_json!, "base64").subarray(1, 4).toString()).toBe("PNG");
  });
});

describe("form bodies", () => {
  it("accepts multipart and urlencoded bodies", async () => {
    const form = new FormData();
    form.append("model", "gw-image");
    form.append("prompt", "a boat");
    form.append("n", "3");
    form.append("size", "1792x1024");
    const mp = await fetch(`${stack.baseUrl()}/images/generations`, { method: "POST", headers: auth(), body: form });
    expect(mp.status).toBe(200);
    expect(((await mp.json()) as { data: unknown[] }).data).toHaveLength(3);
    expect(await costOf(mp.headers.get("x-gateway-trace-id"))).toBe(3 * 120_000);

    const ue = await fetch(`${stack.baseUrl()}/images/generations`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ model: "gw-image", prompt: "a car", size: "1024x1024", response_format: "url" }),
    });
    expect(ue.status).toBe(200);
    expect(((await ue.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it("names the offending field, refuses file uploads and sizes the model does not offer", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ model: "gw-image", prompt: "" }, "prompt"],
      [{ model: "gw-image", prompt: "x".repeat(4001) }, "prompt"],
      [{ model: "gw-image", prompt: "p", n: "11" }, "n"],
      [{ model: "gw-image", prompt: "p", n: "1.5" }, "n"],
      [{ model: "gw-image", prompt: "p", quality: "ultra" }, "quality"],
      [{ model: "gw-image", prompt: "p", style: "noir" }, "style"],
      [{ model: "gw-image", prompt: "p", response_format: "gif" }, "response_format"],
      [{ model: "", prompt: "p" }, "model"],
      [{ model: "gw-image", prompt: "p", size: "10x10" }, "size"],
      // A size is an attribute of the usage event: a long one would make an event NATS refuses.
      [{ model: "gw-image", prompt: "p", size: `1024x${"1".repeat(300_000)}` }, "size"],
      [{ model: "gw-image", prompt: "p", size: "large" }, "size"],
    ];
    for (const [fields, param] of cases) {
      const r = await fetch(`${stack.baseUrl()}/images/generations`, {
        method: "POST",
        headers: { ...auth(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
      const body = (await r.json()) as ErrorBody;
      expect([r.status, body.error.param]).toEqual([400, param]);
    }
    const form = new FormData();
    form.append("model", "gw-image");
    form.append("prompt", "p");
    form.append("image", new Blob(["fake"]), "x.png");
    const upload = await fetch(`${stack.baseUrl()}/images/generations`, { method: "POST", headers: auth(), body: form });
    expect(upload.status).toBe(400);
    expect(((await upload.json()) as ErrorBody).error.message).toContain("File uploads are not accepted");
  });
});
