// The gRPC contracts ship inside the package (dist/proto): a service installed with `pnpm deploy`
// finds them beside its code, wherever node_modules put this package. Source of truth: proto/ at the
// repository root.
import { cpSync, rmSync } from "node:fs";

const to = new URL("./dist/proto", import.meta.url);
rmSync(to, { recursive: true, force: true });
cpSync(new URL("../../proto", import.meta.url), to, { recursive: true });
