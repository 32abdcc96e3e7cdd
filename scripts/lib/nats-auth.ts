import { randomInt } from "node:crypto";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CATALOG_STREAM,
  CATALOG_STREAM_SUBJECTS,
  CONTROL_CHANGED_SUBJECT,
  INBOX_PREFIX,
  ALERTS_DURABLE,
  LEDGER_ALERT_SUBJECT,
  LEDGER_BALANCE_SUBJECT,
  LEDGER_JOURNAL_SUBJECT,
  LEDGER_STREAM,
  RATE_LIMIT_GOSSIP_SUBJECT,
  TRIAL_UNLOCK_DURABLE,
  USAGE_BATCH_SUBJECT,
  USAGE_REFUSED_SUBJECT,
  USAGE_STREAM,
  USAGE_SUBJECT,
} from "@gateway/events";

/**
 * Who may publish and subscribe what on NATS: one user per service, each allowed only the subjects
 * its code uses (docs/operations.md, "NATS credentials and permissions"). The one generator of the
 * server's `authorization` block (`authorizationBlock`), wherever NATS runs, and the same text
 * everywhere: every password is read from nats-server's environment. The test stack
 * (tests/support/stack.ts) and `make up` (scripts/local-stack.ts) write it with fresh random
 * passwords (`writeNatsAuth`) and start nats-server with them in its environment; deploy/k8s carries
 * it as `auth.conf` (printed by `node scripts/nats-auth.ts conf`), the passwords coming from the
 * `gateway-nats-<user>` Secrets, and the manifest check refuses a copy that differs
 * (scripts/lib/k8s-manifests.ts).
 *
 * Everything is in NATS's one global account; what keeps the services apart is the allow lists.
 * Each service takes its replies under its own prefix (`INBOX_PREFIX`), so none can read another's
 * (a ledger's pulled usage events, gatewayctl's journal). The JetStream API is granted per stream
 * and, for consumers, per durable: only a ledger can read USAGE, only the data-plane can publish to
 * it. `admin` has no limits: operators only (the `nats` CLI, repairs), never a service.
 */

/** The NATS users: one per service, gatewayctl's read-only one, and the operators'. */
export const NATS_USERS = ["data-plane", "ledger", "control-plane", "gatewayctl", "admin"] as const;
export type NatsUser = (typeof NATS_USERS)[number];
/** The users a service (or gatewayctl) connects as: each has a permission set and a reply prefix. */
export type NatsServiceUser = Exclude<NatsUser, "admin">;

/** Where each user's credentials come from: `<prefix>NATS_USER` / `<prefix>NATS_PASSWORD` in the service's environment. */
export const NATS_ENV_PREFIX: Record<NatsServiceUser, string> = {
  "data-plane": "DATA_PLANE_",
  ledger: "LEDGER_",
  "control-plane": "CONTROL_PLANE_",
  gatewayctl: "GATEWAY_",
};

/**
 * The variable holding each user's password: in the service's environment, and in the NATS
 * server's, where the block reads it (in Kubernetes both come from the Secret `gateway-nats-<user>`).
 */
export const NATS_PASSWORD_ENV: Record<NatsUser, string> = {
  "data-plane": "DATA_PLANE_NATS_PASSWORD",
  ledger: "LEDGER_NATS_PASSWORD",
  "control-plane": "CONTROL_PLANE_NATS_PASSWORD",
  gatewayctl: "GATEWAY_NATS_PASSWORD",
  admin: "NATS_ADMIN_PASSWORD",
};

/** The Kubernetes Secret holding a user's password (key `password`). */
export const natsSecretName = (user: NatsUser) => `gateway-nats-${user}`;

export interface SubjectRules {
  allow: string[];
  deny?: string[];
}
export interface NatsPermissions {
  publish: SubjectRules;
  subscribe: SubjectRules;
}

const API = "$JS.API";
/** The stream behind the data-plane's RESPONSES bucket (apps/data-plane/src/responses/store.ts). */
const RESPONSES_STREAM = "KV_RESPONSES";
const RESPONSES_SUBJECTS = "$KV.RESPONSES.>";
/** The stream behind the data-plane's PINS bucket (apps/data-plane/src/routing/session-pins.ts), which each replica follows with a watch. */
const PINS_STREAM = "KV_PINS";
const PINS_SUBJECTS = "$KV.PINS.>";

/**
 * Each service user's allow lists, from the subjects, streams and durables the code uses.
 * `ledgerDurable` is LEDGER_CONSUMER_DURABLE. Adding a subject a service publishes or a JetStream
 * call it makes means adding it here (and `node scripts/nats-auth.ts conf` into deploy/k8s/nats.yaml):
 * until then the server refuses it and logs a "Permissions Violation".
 */
export function natsPermissions(ledgerDurable = "ledger"): Record<NatsServiceUser, NatsPermissions> {
  const trial = TRIAL_UNLOCK_DURABLE;
  return {
    "data-plane": {
      publish: {
        allow: [
          // Usage: the only publisher. Acknowledged by the USAGE stream on its reply subject.
          USAGE_SUBJECT,
          USAGE_BATCH_SUBJECT,
          // Refusal records: requests refused before routing (cost 0, never spooled).
          USAGE_REFUSED_SUBJECT,
          RATE_LIMIT_GOSSIP_SUBJECT,
          // Stored Responses: the RESPONSES bucket, which the data-plane creates and sizes.
          RESPONSES_SUBJECTS,
          `${API}.INFO`,
          `${API}.STREAM.INFO.${RESPONSES_STREAM}`,
          `${API}.STREAM.CREATE.${RESPONSES_STREAM}`,
          `${API}.STREAM.UPDATE.${RESPONSES_STREAM}`,
          `${API}.DIRECT.GET.${RESPONSES_STREAM}.>`,
          `${API}.STREAM.MSG.GET.${RESPONSES_STREAM}`,
          // Session pins (cache-warm routing): the PINS bucket, which the data-plane creates, writes
          // and follows with an ordered consumer (its flow-control replies included).
          PINS_SUBJECTS,
          `${API}.STREAM.INFO.${PINS_STREAM}`,
          `${API}.STREAM.CREATE.${PINS_STREAM}`,
          `${API}.CONSUMER.CREATE.${PINS_STREAM}`,
          `${API}.CONSUMER.CREATE.${PINS_STREAM}.>`,
          `${API}.CONSUMER.DELETE.${PINS_STREAM}.>`,
          `$JS.FC.${PINS_STREAM}.>`,
        ],
      },
      subscribe: { allow: [CONTROL_CHANGED_SUBJECT, RATE_LIMIT_GOSSIP_SUBJECT, `${INBOX_PREFIX["data-plane"]}.>`] },
    },
    ledger: {
      publish: {
        allow: [
          LEDGER_BALANCE_SUBJECT,
          LEDGER_JOURNAL_SUBJECT,
          LEDGER_ALERT_SUBJECT,
          `${API}.INFO`,
          // Creates USAGE and LEDGER and keeps their settings (ensure-stream.ts), moving their durables along.
          ...[USAGE_STREAM, LEDGER_STREAM].flatMap((s) => [`${API}.STREAM.INFO.${s}`, `${API}.STREAM.CREATE.${s}`, `${API}.STREAM.UPDATE.${s}`, `${API}.CONSUMER.LIST.${s}`]),
          // Its durable on USAGE, and nothing else there: pulls (no_wait rounds) and acknowledgements.
          `${API}.CONSUMER.INFO.${USAGE_STREAM}.${ledgerDurable}`,
          `${API}.CONSUMER.CREATE.${USAGE_STREAM}.${ledgerDurable}`,
          `${API}.CONSUMER.MSG.NEXT.${USAGE_STREAM}.${ledgerDurable}`,
          `$JS.ACK.${USAGE_STREAM}.${ledgerDurable}.>`,
          // A replay after a point-in-time restore (gatewayctl ledger replay): a durable of its own, made and removed by the ledger.
          ...["INFO", "CREATE", "MSG.NEXT", "DELETE"].map((op) => `${API}.CONSUMER.${op}.${USAGE_STREAM}.${ledgerDurable}_replay`),
          `$JS.ACK.${USAGE_STREAM}.${ledgerDurable}_replay.>`,
          // The control-plane's durable on LEDGER follows the stream's replica count (an update: read, then written back with its filter).
          `${API}.CONSUMER.INFO.${LEDGER_STREAM}.${trial}`,
          `${API}.CONSUMER.CREATE.${LEDGER_STREAM}.${trial}.${LEDGER_BALANCE_SUBJECT}`,
          `${API}.CONSUMER.INFO.${LEDGER_STREAM}.${ALERTS_DURABLE}`,
          `${API}.CONSUMER.CREATE.${LEDGER_STREAM}.${ALERTS_DURABLE}.${LEDGER_ALERT_SUBJECT}`,
          // The catalog's price sheets, read one version at a time to recompute each event's cost.
          `${API}.STREAM.MSG.GET.${CATALOG_STREAM}`,
        ],
      },
      subscribe: { allow: [`${INBOX_PREFIX.ledger}.>`] },
    },
    "control-plane": {
      publish: {
        allow: [
          CONTROL_CHANGED_SUBJECT,
          `${API}.INFO`,
          // The only writer of the catalog's price sheets (CATALOG, which it creates): never the data-plane.
          ...CATALOG_STREAM_SUBJECTS,
          `${API}.STREAM.INFO.${CATALOG_STREAM}`,
          `${API}.STREAM.CREATE.${CATALOG_STREAM}`,
          // Creates LEDGER when it starts before the ledger (trial-unlock.ts), with the ledger's settings.
          `${API}.STREAM.INFO.${LEDGER_STREAM}`,
          `${API}.STREAM.CREATE.${LEDGER_STREAM}`,
          // Its durable on LEDGER, filtered to top-ups (the filter is part of the subject: no other is possible).
          `${API}.CONSUMER.INFO.${LEDGER_STREAM}.${trial}`,
          `${API}.CONSUMER.CREATE.${LEDGER_STREAM}.${trial}.${LEDGER_BALANCE_SUBJECT}`,
          `${API}.CONSUMER.MSG.NEXT.${LEDGER_STREAM}.${trial}`,
          `$JS.ACK.${LEDGER_STREAM}.${trial}.>`,
          // Its durable on LEDGER for alerts, filtered to them: it sends the organizations' webhooks.
          `${API}.CONSUMER.INFO.${LEDGER_STREAM}.${ALERTS_DURABLE}`,
          `${API}.CONSUMER.CREATE.${LEDGER_STREAM}.${ALERTS_DURABLE}.${LEDGER_ALERT_SUBJECT}`,
          `${API}.CONSUMER.MSG.NEXT.${LEDGER_STREAM}.${ALERTS_DURABLE}`,
          `$JS.ACK.${LEDGER_STREAM}.${ALERTS_DURABLE}.>`,
        ],
      },
      subscribe: { allow: [`${INBOX_PREFIX["control-plane"]}.>`] },
    },
    gatewayctl: {
      // `journal tail`: an ephemeral ordered consumer of ledger.v1.journal (its name is the client's
      // choice, its filter is in the subject), read and deleted; nothing published, nothing acknowledged.
      publish: {
        allow: [
          `${API}.INFO`,
          `${API}.STREAM.INFO.${LEDGER_STREAM}`,
          `${API}.CONSUMER.CREATE.${LEDGER_STREAM}.*.${LEDGER_JOURNAL_SUBJECT}`,
          `${API}.CONSUMER.INFO.${LEDGER_STREAM}.*`,
          `${API}.CONSUMER.MSG.NEXT.${LEDGER_STREAM}.*`,
          `${API}.CONSUMER.DELETE.${LEDGER_STREAM}.*`,
        ],
        // Never the control-plane's durable: pulling from it would take top-ups from the control-plane.
        deny: [
          `${API}.CONSUMER.*.${LEDGER_STREAM}.${trial}`,
          `${API}.CONSUMER.*.${LEDGER_STREAM}.${trial}.>`,
          `${API}.CONSUMER.MSG.NEXT.${LEDGER_STREAM}.${trial}`,
          `${API}.CONSUMER.*.${LEDGER_STREAM}.${ALERTS_DURABLE}`,
          `${API}.CONSUMER.*.${LEDGER_STREAM}.${ALERTS_DURABLE}.>`,
          `${API}.CONSUMER.MSG.NEXT.${LEDGER_STREAM}.${ALERTS_DURABLE}`,
        ],
      },
      subscribe: { allow: [`${INBOX_PREFIX.gatewayctl}.>`] },
    },
  };
}

/** A user's permission set's name in the block: `DATA_PLANE`, `GATEWAYCTL`. */
const setName = (user: NatsServiceUser) => user.toUpperCase().replace(/-/g, "_");
/** `publish` or `subscribe` rules, one subject a line (a deploy diff shows each grant that changes). */
const rules = (what: string, r: SubjectRules) => [
  `    ${what}: {`,
  ...Object.entries(r).flatMap(([k, subjects]: [string, string[]]) => [`      ${k}: [`, ...subjects.map((x) => `        ${JSON.stringify(x)}`), "      ]"]),
  "    }",
];

/**
 * The server's `authorization` block: the permission sets, then one user per identity, each password
 * read by nats-server from its environment (`$DATA_PLANE_NATS_PASSWORD` …), so the file holds no secret.
 */
export function authorizationBlock(ledgerDurable = "ledger"): string {
  const perms = natsPermissions(ledgerDurable);
  const password = (user: NatsUser) => `$${NATS_PASSWORD_ENV[user]}`;
  const services = NATS_USERS.filter((u): u is NatsServiceUser => u !== "admin");
  return [
    "# NATS users and permissions, generated by scripts/lib/nats-auth.ts (`node scripts/nats-auth.ts conf`): change them there.",
    '# Who may publish and subscribe what, and why: docs/operations.md, "NATS credentials and permissions".',
    "authorization {",
    ...services.flatMap((u) => [`  ${setName(u)} = {`, ...rules("publish", perms[u].publish), ...rules("subscribe", perms[u].subscribe), "  }"]),
    "  users: [",
    ...services.map((u) => `    { user: ${JSON.stringify(u)}, password: ${password(u)}, permissions: $${setName(u)} }`),
    `    { user: "admin", password: ${password("admin")} }`,
    "  ]",
    "}",
    "",
  ].join("\n");
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ALPHANUMERIC = `${LETTERS}0123456789`;

/**
 * A random password of 40 letters and digits (about 238 bits), starting with a letter: nats-server
 * parses a variable from its environment as a configuration value, so a password with punctuation
 * or spaces, or one that reads as a number or a date, would be misread or refused.
 */
export function newNatsPassword(): string {
  let s = LETTERS[randomInt(LETTERS.length)]!;
  while (s.length < 40) s += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]!;
  return s;
}

/** A written set of NATS credentials: the server's configuration and each user's password. */
export interface NatsAuth {
  /** The folder: `auth.conf` and `<user>/password` (the layout of the Secrets mounted side by side). */
  dir: string;
  /** The nats-server configuration file (`-c`): the authorization block. */
  configFile: string;
  /** What nats-server needs in its environment to read that file: every user's password. */
  serverEnv: Record<string, string>;
  passwords: Record<NatsUser, string>;
  /** The variables that give a service (or gatewayctl) its NATS user: `DATA_PLANE_NATS_USER`, `DATA_PLANE_NATS_PASSWORD`. */
  env(user: NatsServiceUser): Record<string, string>;
  /** nats.js connection options as `user` (its reply prefix included, which its permissions require). */
  connectOptions(user: NatsUser): { user: string; pass: string; inboxPrefix?: string };
}

/**
 * Writes fresh random passwords for every user into `dir` (`<user>/password`, owner-only) and the
 * server's configuration beside them (`auth.conf`). The test stack and `make up` call it on every
 * start; `node scripts/nats-auth.ts secrets <dir>` does the same for a deployment.
 */
export function writeNatsAuth(dir: string, opts: { ledgerDurable?: string } = {}): NatsAuth {
  const passwords = Object.fromEntries(NATS_USERS.map((u) => [u, newNatsPassword()])) as Record<NatsUser, string>;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  for (const u of NATS_USERS) {
    mkdirSync(join(dir, u), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, u, "password"), passwords[u], { mode: 0o600 });
    chmodSync(join(dir, u, "password"), 0o600);
  }
  const configFile = join(dir, "auth.conf");
  writeFileSync(configFile, authorizationBlock(opts.ledgerDurable));
  return {
    dir,
    configFile,
    serverEnv: Object.fromEntries(NATS_USERS.map((u) => [NATS_PASSWORD_ENV[u], passwords[u]])),
    passwords,
    env: (user) => ({ [`${NATS_ENV_PREFIX[user]}NATS_USER`]: user, [NATS_PASSWORD_ENV[user]]: passwords[user] }),
    connectOptions: (user) => ({ user, pass: passwords[user], ...(user === "admin" ? {} : { inboxPrefix: INBOX_PREFIX[user] }) }),
  };
}
