CREATE TABLE "checklist_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"application_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"item_id" text,
	"recommender_id" uuid,
	"ip" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "checklist_audit_action_check" CHECK ("checklist_audit"."action" IN ('request', 'waiver', 'link-sent', 'link-opened', 'letter-submitted', 'reminder-sent', 'material-received'))
);
--> statement-breakpoint
CREATE TABLE "checklist_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"file_name" text,
	"source_key" text,
	"pdf_key" text,
	"conversion_token" text,
	"conversion_status" text,
	"conversion_message" text,
	"conversion_started_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	CONSTRAINT "checklist_requests_conversion_check" CHECK ("checklist_requests"."conversion_status" IS NULL OR "checklist_requests"."conversion_status" IN ('converting', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "checklist_waivers" (
	"application_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"waived_by" text NOT NULL,
	"waived_at" timestamp with time zone NOT NULL,
	CONSTRAINT "checklist_waivers_application_id_item_id_pk" PRIMARY KEY("application_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "recommenders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"ferpa_waived" boolean NOT NULL,
	"token_hash" text,
	"token_sealed" text,
	"link_sent_at" timestamp with time zone NOT NULL,
	"link_expires_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	"known_years" integer,
	"capacity" text,
	"letter_text" text,
	"letter_file_name" text,
	"letter_source_key" text,
	"letter_pdf_key" text,
	"conversion_token" text,
	"conversion_status" text,
	"conversion_message" text,
	"conversion_started_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"auto_reminders" integer DEFAULT 0 NOT NULL,
	"last_reminder_at" timestamp with time zone,
	"applicant_reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recommenders_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "recommenders_type_check" CHECK ("recommenders"."type" IN ('counselor', 'teacher', 'other')),
	CONSTRAINT "recommenders_conversion_check" CHECK ("recommenders"."conversion_status" IS NULL OR "recommenders"."conversion_status" IN ('converting', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "staff_members" DROP CONSTRAINT "staff_members_role_check";--> statement-breakpoint
ALTER TABLE "checklist_requests" ADD CONSTRAINT "checklist_requests_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checklist_waivers" ADD CONSTRAINT "checklist_waivers_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommenders" ADD CONSTRAINT "recommenders_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checklist_audit_application_idx" ON "checklist_audit" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE INDEX "checklist_requests_application_idx" ON "checklist_requests" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "recommenders_application_idx" ON "recommenders" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "recommenders_due_idx" ON "recommenders" USING btree ("last_reminder_at") WHERE "recommenders"."submitted_at" IS NULL AND "recommenders"."removed_at" IS NULL;--> statement-breakpoint
ALTER TABLE "staff_members" ADD CONSTRAINT "staff_members_role_check" CHECK ("staff_members"."role" IN ('reader', 'exporter', 'processor'));--> statement-breakpoint
CREATE FUNCTION "checklist_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'checklist_audit is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "checklist_audit_no_update_delete" BEFORE UPDATE OR DELETE ON "checklist_audit"
  FOR EACH ROW EXECUTE FUNCTION "checklist_audit_append_only"();--> statement-breakpoint
CREATE TRIGGER "checklist_audit_no_truncate" BEFORE TRUNCATE ON "checklist_audit"
  FOR EACH STATEMENT EXECUTE FUNCTION "checklist_audit_append_only"();
