import { describe, expect, it } from "vitest";
import { SecretSealer, newWebhookSecret, secretDisplayPrefix } from "./secrets.js";

describe("webhook signing secrets at rest", () => {
  const key = "k".repeat(32);

  it("are whsec_ and 32 random bytes, shown afterwards by their first four characters", () => {
    const s = newWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(s);
    expect(secretDisplayPrefix(s)).toBe(s.slice(0, 10));
  });

  it("are sealed: the stored value holds no trace of the secret and opens only for its organization, under its key", () => {
    const secret = newWebhookSecret();
    const sealed = new SecretSealer(key).seal("org_a", secret);
    expect(sealed).toMatch(/^gws1\./);
    expect(sealed).not.toContain(secret.slice(6, 16));
    expect(new SecretSealer(key).open("org_a", sealed)).toBe(secret);
    // Sealed twice, two different values (a fresh IV each time).
    expect(new SecretSealer(key).seal("org_a", secret)).not.toBe(sealed);
    expect(new SecretSealer(key).open("org_b", sealed)).toBeUndefined();
    expect(new SecretSealer("j".repeat(32)).open("org_a", sealed)).toBeUndefined();
    expect(new SecretSealer(key).open("org_a", `${sealed.slice(0, -2)}AA`)).toBeUndefined();
    expect(new SecretSealer(key).open("org_a", secret)).toBeUndefined();
  });
});
