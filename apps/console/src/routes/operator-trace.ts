import { signed, type Routes } from "../middleware.js";
import { memberRecord } from "../usage-view.js";

/**
 * The operator's trace lookup (docs/console.md, "Trace lookup"): any request's record by its trace
 * or request id, whatever its organization. The control-plane checks that the session is an
 * operator's, writes the lookup to its audit log and signs a one-minute grant for this one id; the
 * ledger reads across organizations only with it (LookupTrace). An organization's member gets a 403
 * here, and its own requests by id at /api/requests/{id}.
 */
export function operatorTraceRoutes({ ctx, read }: Routes): void {
  const { control, ledger } = ctx;
  read(
    "/api/operator/trace/:id",
    async (req, res) => {
      const requestId = String(req.params.id);
      const { grant } = await control.ConsoleGrantTraceLookup({ token: signed(res).token, request_id: requestId });
      return memberRecord(await ledger.LookupTrace({ request_id: requestId.trim(), grant }));
    },
    "operator",
  );
}
