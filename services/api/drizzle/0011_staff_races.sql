CREATE TABLE "staff_list_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"staff_id" uuid,
	"staff_email" text,
	"api_key_id" uuid,
	"query" jsonb NOT NULL,
	"total" integer NOT NULL,
	"shown" integer NOT NULL,
	"ip" text
);
--> statement-breakpoint
ALTER TABLE "service_audit" ADD COLUMN "api_key_id" uuid;--> statement-breakpoint
CREATE INDEX "staff_list_audit_created_idx" ON "staff_list_audit" USING btree ("created_at");--> statement-breakpoint
-- Hand-written: before the one-running index can exist, a second running export of one exporter
-- (left by the race this index closes) is failed, keeping the newest.
UPDATE "staff_exports" e SET "status" = 'failed', "finished_at" = now(),
  "message" = 'The server stopped before this export finished. Please start it again.'
WHERE e."status" = 'running' AND EXISTS (
  SELECT 1 FROM "staff_exports" n WHERE n."staff_id" = e."staff_id" AND n."status" = 'running'
    AND (n."created_at", n."id") > (e."created_at", e."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "staff_exports_one_running" ON "staff_exports" USING btree ("staff_id") WHERE "staff_exports"."status" = 'running';;--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): the list audit is append-only, as
-- service_audit is (0004_print_and_pdf); the same SQL runs on PGlite and PostgreSQL.
CREATE FUNCTION "staff_list_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'staff_list_audit is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "staff_list_audit_no_update_delete" BEFORE UPDATE OR DELETE ON "staff_list_audit"
  FOR EACH ROW EXECUTE FUNCTION "staff_list_audit_append_only"();--> statement-breakpoint
CREATE TRIGGER "staff_list_audit_no_truncate" BEFORE TRUNCATE ON "staff_list_audit"
  FOR EACH STATEMENT EXECUTE FUNCTION "staff_list_audit_append_only"();
