-- The gateway's database roles (docs/operations.md, "Postgres"): one login role per service, each
-- owning its own schema and nothing else, and a read-only role for the billing team's view of the
-- ledger. Run once by a role with CREATEROLE on the gateway's database, and again at any time (every
-- statement is idempotent; a password given again is set again):
--
--   psql "postgres://admin@db.internal:5432/gateway" -v ON_ERROR_STOP=1 \
--     -v control_password="$CONTROL_PW" -v ledger_password="$LEDGER_PW" -v billing_password="$BILLING_PW" \
--     -f deploy/postgres/roles.sql
--
-- The search_path and the statement timeout are the roles' own settings, not the connections'
-- startup options: a transaction-mode pooler (PgBouncer) refuses startup options, so the services
-- connect without them (*_DB_STARTUP_OPTIONS=false in the production overlay).

SELECT format('CREATE ROLE %I LOGIN', r) FROM unnest(ARRAY['gateway_control', 'gateway_ledger', 'gateway_billing']) AS r
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) \gexec
ALTER ROLE gateway_control PASSWORD :'control_password';
ALTER ROLE gateway_ledger PASSWORD :'ledger_password';
ALTER ROLE gateway_billing PASSWORD :'billing_password';
-- Whoever runs this must be a member of the two owner roles to hand them their schemas and set their
-- default privileges (a superuser is; a CREATEROLE admin on Postgres 16 is not, until granted).
SELECT format('GRANT %I TO %I', r, current_user) FROM unnest(ARRAY['gateway_control', 'gateway_ledger']) AS r
WHERE NOT pg_has_role(current_user, r, 'MEMBER') \gexec

-- Each service migrates and owns its schema (the ledger also creates a partition each month).
CREATE SCHEMA IF NOT EXISTS control AUTHORIZATION gateway_control;
CREATE SCHEMA IF NOT EXISTS ledger AUTHORIZATION gateway_ledger;
ALTER SCHEMA control OWNER TO gateway_control;
ALTER SCHEMA ledger OWNER TO gateway_ledger;
-- Nobody creates objects anywhere else (public is closed by default from Postgres 15 on; this also
-- closes it on a database upgraded from an older one).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SELECT format('REVOKE CREATE, TEMPORARY ON DATABASE %I FROM PUBLIC', current_database()) \gexec
SELECT format('GRANT CONNECT ON DATABASE %I TO gateway_control, gateway_ledger, gateway_billing', current_database()) \gexec

-- What the startup options used to set. 10 s is the services' statement timeout: no query may hold a
-- request; the ledger's long reads (ledger check, republish) raise it per transaction themselves.
ALTER ROLE gateway_control SET search_path = control;
ALTER ROLE gateway_control SET statement_timeout = '10s';
ALTER ROLE gateway_ledger SET search_path = ledger;
ALTER ROLE gateway_ledger SET statement_timeout = '10s';

-- The billing team's view (docs/billing.md, "What the billing team reads"): the ledger's tables,
-- read-only, including those later migrations create.
ALTER ROLE gateway_billing SET search_path = ledger;
ALTER ROLE gateway_billing SET default_transaction_read_only = on;
ALTER ROLE gateway_billing SET statement_timeout = '5min';
GRANT USAGE ON SCHEMA ledger TO gateway_billing;
GRANT SELECT ON ALL TABLES IN SCHEMA ledger TO gateway_billing;
ALTER DEFAULT PRIVILEGES FOR ROLE gateway_ledger IN SCHEMA ledger GRANT SELECT ON TABLES TO gateway_billing;
