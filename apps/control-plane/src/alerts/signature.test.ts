import { describe, expect, it } from "vitest";
import { signatureHeader, verifySignature } from "./signature.js";

/** Gateway-Signature (docs/billing.md, "Alerts"): what a receiver recomputes from the raw body and the timestamp header. */
describe("webhook signatures", () => {
  const body = '{"id":"alert_1"}';

  it("are v1= and the hex HMAC-SHA256 of '<timestamp>.<body>' under the whole secret (a vector computed elsewhere)", () => {
    // python3: hmac.new(b"whsec_test", b'1700000000.{"id":"alert_1"}', hashlib.sha256).hexdigest()
    expect(signatureHeader("whsec_test", 1_700_000_000, body)).toBe("v1=c26fcd590003debde6cd810964479ca90c5b656c82e9c54e3496d4bca50d6981");
  });

  it("verify for the right secret, body and a recent timestamp only", () => {
    const now = 1_700_000_000;
    const sig = signatureHeader("whsec_test", now, body);
    expect(verifySignature("whsec_test", sig, String(now), body, now + 10)).toBe(true);
    expect(verifySignature("whsec_other", sig, String(now), body, now)).toBe(false);
    expect(verifySignature("whsec_test", sig, String(now), body.replace("1", "2"), now)).toBe(false);
    // The timestamp is signed: moving it breaks the signature; an old delivery replayed is refused.
    expect(verifySignature("whsec_test", sig, String(now + 1), body, now)).toBe(false);
    expect(verifySignature("whsec_test", sig, String(now), body, now + 301)).toBe(false);
    expect(verifySignature("whsec_test", "v1=zz", String(now), body, now)).toBe(false);
    expect(verifySignature("whsec_test", sig, "soon", body, now)).toBe(false);
  });

  it("accept any one of several v1 signatures in the header (a receiver may be sent more than one)", () => {
    const now = 1_700_000_000;
    const header = `v1=${"0".repeat(64)}, ${signatureHeader("whsec_test", now, body)}`;
    expect(verifySignature("whsec_test", header, String(now), body, now)).toBe(true);
  });
});
