CREATE TABLE "application_pdfs" (
	"user_id" uuid NOT NULL,
	"audience" text NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"token" text NOT NULL,
	"storage_key" text,
	"pdf_size" integer,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_pdfs_user_id_audience_pk" PRIMARY KEY("user_id","audience")
);
--> statement-breakpoint
CREATE TABLE "service_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"action" text NOT NULL,
	"shown" jsonb NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_audit_action_check" CHECK ("service_audit"."action" IN ('print-view', 'pdf'))
);
--> statement-breakpoint
ALTER TABLE "application_pdfs" ADD CONSTRAINT "application_pdfs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_pdfs_status_idx" ON "application_pdfs" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "service_audit_user_idx" ON "service_audit" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "service_audit_token_idx" ON "service_audit" USING btree ("token_id");--> statement-breakpoint
-- Append-only (docs/design-decisions.md, 8): the application may insert and read, never change or remove a row.
-- Hand-written (drizzle-kit does not model triggers); the same SQL runs on PGlite and PostgreSQL.
CREATE FUNCTION "service_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'service_audit is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "service_audit_no_update_delete" BEFORE UPDATE OR DELETE ON "service_audit"
  FOR EACH ROW EXECUTE FUNCTION "service_audit_append_only"();--> statement-breakpoint
CREATE TRIGGER "service_audit_no_truncate" BEFORE TRUNCATE ON "service_audit"
  FOR EACH STATEMENT EXECUTE FUNCTION "service_audit_append_only"();
