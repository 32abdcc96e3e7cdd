/** Every organization's audit log and the gateway's own (/operator/audit), newest first. */
import { auditLog } from "../audit-log.js";
import { startPage } from "../shell.js";

void startPage(async () => auditLog(true)(true));
