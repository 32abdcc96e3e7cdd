import { getEventListeners } from "node:events";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GuardrailConfigError, compileRules, headerValue, mergeOutcomes, parseRulesDocument, type TextSegment } from "./index.js";

const run = async (yaml: string, texts: string[], route = "chat", stage: "input" | "output" = "input") => {
  const g = compileRules(parseRulesDocument(yaml));
  const segs: TextSegment[] = texts.map((text) => ({ text }));
  const r = await g.run(segs, { route, stage });
  return { ...r, texts: segs.map((s) => s.text), header: headerValue(r.outcomes) };
};

describe("rules documents", () => {
  const err = (yaml: string) => {
    try {
      parseRulesDocument(yaml);
    } catch (e) {
      expect(e).toBeInstanceOf(GuardrailConfigError);
      return (e as Error).message;
    }
    throw new Error("expected a GuardrailConfigError");
  };

  it("names the line and field of a bad plugin, action, field or pattern", () => {
    expect(err("rules:\n  - plugin: pii\n  - plugin: antivirus\n")).toMatch(/^line 3: rules\[1\]\.plugin: /);
    expect(err("rules:\n  - plugin: regex\n    action: block\n    config: { patterns: [a] }\n")).toMatch(/^line 3: rules\[0\]\.action: .*deny.*mask.*log/);
    expect(err("rules:\n  - plugin: keywords\n    colour: red\n    config: { words: [a] }\n")).toMatch(/^line 2: rules\[0\]: .*colour/);
    expect(err("rules:\n  - plugin: regex\n    config:\n      patterns:\n        - ok\n        - '(unclosed'\n")).toMatch(/^line 6: rules\[0\]\.config\.patterns\[1\]: invalid pattern "\(unclosed"/);
    expect(err("rules:\n  - plugin: length\n    action: mask\n    config: { max_chars: 10 }\n")).toMatch(/^line 3: rules\[0\]\.action/);
    expect(err("rules:\n  - plugin: pii\n    stage: output\n    action: mask\n    streaming: window\n")).toMatch(/^line 5: rules\[0\]\.streaming: window mode cannot mask/);
    expect(err("rules: [\n")).toMatch(/^line \d+: not valid YAML/);
  });

  it("fills defaults and accepts JSON", () => {
    const [r] = parseRulesDocument('{"rules":[{"plugin":"pii"}]}');
    expect(r).toMatchObject({
      plugin: "pii",
      stage: "input",
      routes: [],
      action: "deny",
      failure_mode: "closed",
      streaming: "refuse",
      config: { types: ["email", "phone", "card", "iban", "ssn", "ip"] },
    });
    expect(parseRulesDocument("")).toEqual([]);
  });
});

describe("pii", () => {
  const mask = "rules:\n  - plugin: pii\n    action: mask\n";
  it("masks each type with a typed placeholder", async () => {
    const r = await run(mask, ["mail jane.doe@example.com, call +44 20 7946 0958 or (555) 123-4567, card 4111 1111 1111 1111, iban GB82 WEST 1234 5698 7654 32, ssn 123-45-6789, host 10.1.2.3"]);
    expect(r.texts[0]).toBe("mail [EMAIL], call [PHONE] or [PHONE], card [CARD], iban [IBAN], ssn [SSN], host [IP]");
    expect(r.header).toBe("pii:masked");
  });

  it("finds e-mail addresses from their @ outwards", async () => {
    const r = await run(mask, ["to: a.b+c@mail.example.co.uk, x@y.io. Not: user@localhost, @handle, a@b"]);
    expect(r.texts[0]).toBe("to: [EMAIL], [EMAIL]. Not: user@localhost, @handle, a@b");
  });

  it("leaves numbers that fail the checks alone", async () => {
    const r = await run(mask, ["order 4111 1111 1111 1112, iban GB82 WEST 1234 5698 7654 33, date 2024-01-15, ssn 666-45-6789, total 1234.56"]);
    expect(r.texts[0]).toBe("order 4111 1111 1111 1112, iban GB82 WEST 1234 5698 7654 33, date 2024-01-15, ssn 666-45-6789, total 1234.56");
    expect(r.header).toBe("pii:pass");
  });

  it("denies without echoing the value, and only the configured types", async () => {
    const r = await run("rules:\n  - plugin: pii\n    name: no-cards\n    config: { types: [card] }\n", ["pay with 5500 0000 0000 0004 to bob@example.com"]);
    expect(r.denied?.message).toBe("Input blocked by guardrail 'no-cards' (pii): contains a payment card number.");
    expect(r.denied?.message).not.toContain("5500");
    const mailOnly = await run("rules:\n  - plugin: pii\n    config: { types: [card] }\n", ["write to bob@example.com"]);
    expect(mailOnly.header).toBe("pii:pass");
  });
});

describe("regex, keywords, length", () => {
  it("regex denies, masks and logs", async () => {
    expect((await run("rules:\n  - plugin: regex\n    config: { patterns: ['(?i)secret-\\d+'] }\n", ["my SECRET-42"])).header).toBe("regex:denied");
    const m = await run("rules:\n  - plugin: regex\n    action: mask\n    config: { patterns: ['secret-\\d+', 'tok_[a-z]+'] }\n", ["a secret-1 and tok_abc"]);
    expect(m.texts[0]).toBe("a [REDACTED] and [REDACTED]");
    const l = await run("rules:\n  - plugin: regex\n    action: log\n    config: { patterns: ['secret'] }\n", ["secret"]);
    expect(l).toMatchObject({ header: "regex:logged", texts: ["secret"] });
    expect(l.denied).toBeUndefined();
  });

  it("a catastrophic-backtracking pattern runs in linear time", async () => {
    const g = compileRules(parseRulesDocument("rules:\n  - plugin: regex\n    config: { patterns: ['(a+)+$', '(x|x)*y'] }\n"));
    const text = "a".repeat(30_000) + "!" + "x".repeat(30_000);
    // Backtracking on 30,000 characters would not finish within the test's timeout: finishing is the proof.
    const r = await g.run([{ text }], { route: "chat", stage: "input" });
    expect(r.outcomes[0]!.outcome).toBe("pass");
  });

  it("keywords match whole words, case-insensitively by default", async () => {
    const y = "rules:\n  - plugin: keywords\n    action: mask\n    config: { words: [foo, bar baz] }\n";
    expect((await run(y, ["FOO food bar baz! foobar"])).texts[0]).toBe("[REDACTED] food [REDACTED]! foobar");
    expect((await run("rules:\n  - plugin: keywords\n    config: { words: [Foo], case_sensitive: true }\n", ["foo"])).header).toBe("keywords:pass");
  });

  it("length denies long prompts by characters or estimated tokens", async () => {
    expect((await run("rules:\n  - plugin: length\n    config: { max_chars: 10 }\n", ["12345", "123456"])).denied?.message).toMatch(/11 characters exceed 10/);
    expect((await run("rules:\n  - plugin: length\n    config: { max_tokens: 2 }\n", ["123456789"])).denied?.message).toMatch(/about 3 tokens exceed 2/);
    expect((await run("rules:\n  - plugin: length\n    config: { max_chars: 10 }\n", ["short"])).header).toBe("length:pass");
  });
});

describe("the routes a rule names", () => {
  it("are every route of the API, responses and mcp included; others are refused by name", () => {
    expect(parseRulesDocument("rules:\n  - plugin: pii\n    routes: [responses, mcp]\n")[0]!.routes).toEqual(["responses", "mcp"]);
    expect(() => parseRulesDocument("rules:\n  - plugin: pii\n    routes: [completions]\n")).toThrow(/routes/);
  });
});

describe("order, routes and stages", () => {
  const y = `rules:
  - plugin: length
    routes: [embeddings]
    config: { max_chars: 1 }
  - plugin: keywords
    config: { words: [stop] }
  - plugin: pii
    action: mask
  - plugin: regex
    stage: output
    config: { patterns: [x] }
`;
  it("reports every rule in order; after a denial the rest are skipped", async () => {
    expect((await run(y, ["please stop, mail a@b.co"])).header).toBe("length:skipped,keywords:denied,pii:skipped,regex:skipped");
    expect((await run(y, ["mail a@b.co"])).header).toBe("length:skipped,keywords:pass,pii:masked,regex:skipped");
    expect((await run(y, ["x"], "chat", "output")).header).toBe("length:skipped,keywords:skipped,pii:skipped,regex:denied");
  });

  it("merges two stages into one entry per rule", () => {
    const a = [
      { plugin: "pii", outcome: "masked" as const },
      { plugin: "regex", outcome: "skipped" as const },
    ];
    const b = [
      { plugin: "pii", outcome: "skipped" as const },
      { plugin: "regex", outcome: "pass" as const },
    ];
    expect(headerValue(mergeOutcomes(a, b))).toBe("pii:masked,regex:pass");
  });

  it("knows which output rules refuse streams", () => {
    const g = compileRules(parseRulesDocument("rules:\n  - plugin: pii\n    stage: output\n    routes: [chat]\n"));
    expect(g.blocksStreaming("chat")).toBe(true);
    expect(g.blocksStreaming("messages")).toBe(false);
    const w = compileRules(parseRulesDocument("rules:\n  - plugin: keywords\n    stage: output\n    streaming: window\n    config: { words: [forbidden] }\n"));
    expect(w.blocksStreaming("chat")).toBe(false);
  });

  it("window mode finds a match split across two pieces", () => {
    const g = compileRules(parseRulesDocument("rules:\n  - plugin: keywords\n    stage: output\n    streaming: window\n    config: { words: [forbidden] }\n"));
    const c = g.streamChecker("chat")!;
    expect(c.feed("this is forb").denied).toBeUndefined();
    expect(c.feed("idden text").denied?.message).toMatch(/Output blocked by guardrail 'keywords'/);
    expect(headerValue(c.outcomes())).toBe("keywords:denied");
  });
});

describe("webhook", () => {
  let server: Server;
  let url = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const j = JSON.parse(body) as { texts: string[] };
        const mode = req.url!.slice(1);
        if (mode === "slow") return void setTimeout(() => res.end('{"action":"allow"}'), 1_000);
        if (mode === "fail") return void res.writeHead(500).end("boom");
        if (mode === "deny") return void res.end(JSON.stringify({ action: "deny", reason: "violent content" }));
        if (mode === "mask") return void res.end(JSON.stringify({ action: "mask", texts: j.texts.map((t) => t.toUpperCase()) }));
        res.end('{"action":"allow"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const hook = (mode: string, failure = "closed") => `rules:\n  - plugin: webhook\n    failure_mode: ${failure}\n    config: { url: "${url}/${mode}", timeout_ms: 100 }\n`;

  it("allows, denies with the reason, masks", async () => {
    expect((await run(hook("allow"), ["hi"])).header).toBe("webhook:pass");
    expect((await run(hook("deny"), ["hi"])).denied?.message).toBe("Input blocked by guardrail 'webhook': violent content.");
    expect((await run(hook("mask"), ["hi", "there"])).texts).toEqual(["HI", "THERE"]);
  });

  it("fails closed (deny) or open (error, request continues) on timeout and errors", async () => {
    // The slow hook answers "allow" after a second: a denial for not answering proves the 100 ms
    // timeout fired first (no wall-clock bound needed).
    const closed = await run(hook("slow"), ["hi"]);
    expect(closed.denied?.message).toMatch(/moderation service did not answer/);
    const open = await run(hook("slow", "open") + "  - plugin: keywords\n    config: { words: [hi] }\n", ["hi"]);
    expect(open.header).toBe("webhook:error,keywords:denied");
    expect((await run(hook("fail", "open"), ["hi"])).header).toBe("webhook:error");
    expect((await run(hook("fail"), ["hi"])).header).toBe("webhook:denied");
  });

  describe("nothing outlives a call", () => {
    const rules = compileRules(parseRulesDocument(`rules:\n  - plugin: webhook\n    config: { url: "http://moderation.invalid/check", timeout_ms: 10000 }\n`));
    /** A fetch that answers when told to, or fails when its signal aborts; records the signal. */
    const pendingFetch = () => {
      const seen: { signal?: AbortSignal; answer?: () => void } = {};
      const fetch = ((_url: string, init?: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          seen.signal = init?.signal ?? undefined;
          seen.answer = () => resolve(new Response('{"action":"allow"}'));
          seen.signal?.addEventListener("abort", () => reject(seen.signal!.reason));
        })) as typeof globalThis.fetch;
      return { seen, fetch };
    };

    it("an answered call leaves no timer and no listener on the caller's signal", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const caller = new AbortController();
        const { seen, fetch } = pendingFetch();
        const result = rules.run([{ text: "hi" }], { route: "chat", stage: "input", signal: caller.signal, fetch });
        await vi.waitFor(() => expect(seen.answer).toBeDefined());
        expect(vi.getTimerCount()).toBe(1);
        expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
        seen.answer!();
        expect(headerValue((await result).outcomes)).toBe("webhook:pass");
        expect(vi.getTimerCount()).toBe(0);
        expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
      } finally {
        vi.useRealTimers();
      }
    });

    it("still times out at timeout_ms, and follows the caller's signal", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const slow = pendingFetch();
        const timedOut = rules.run([{ text: "hi" }], { route: "chat", stage: "input", fetch: slow.fetch });
        await vi.waitFor(() => expect(slow.seen.signal).toBeDefined());
        vi.advanceTimersByTime(10_000);
        expect(slow.seen.signal!.aborted).toBe(true);
        expect((await timedOut).denied?.message).toMatch(/moderation service did not answer/);
        const caller = new AbortController();
        const left = pendingFetch();
        const gone = rules.run([{ text: "hi" }], { route: "chat", stage: "input", signal: caller.signal, fetch: left.fetch });
        await vi.waitFor(() => expect(left.seen.signal).toBeDefined());
        caller.abort();
        expect(left.seen.signal!.aborted).toBe(true);
        expect(headerValue((await gone).outcomes)).toBe("webhook:denied");
        expect(vi.getTimerCount()).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
