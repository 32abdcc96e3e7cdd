/** The organization's audit log (/audit): every console change, newest first; admins only (the control-plane refuses the others). */
import { auditLog } from "../audit-log.js";
import { startPage } from "../shell.js";

void startPage(async () => auditLog(false)(true));
