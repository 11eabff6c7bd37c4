-- Admission rounds (issue 29): an application belongs to an applicant and a round. Hand-edited
-- from drizzle-kit's output so that existing data migrates without loss, on PGlite and PostgreSQL:
-- every application moves into the default round and keeps its applicant's id as its own id, so
-- the rows keyed by the applicant (documents, conversions, PDFs, the audit) keep their values,
-- and every link, service token and staff URL that named the applicant names the same application.
CREATE TABLE "rounds" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"entry_term" text NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"grace_minutes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The round every application before rounds belongs to: always open, it never closes.
INSERT INTO "rounds" ("code", "name", "entry_term", "opens_at", "deadline", "grace_minutes")
VALUES ('DEFAULT', 'Admission', '', '2000-01-01T00:00:00Z', '9999-12-31T00:00:00Z', 0);--> statement-breakpoint
-- The dependent tables' keys to users go first: the applications' primary key changes under them.
ALTER TABLE "document_answers" DROP CONSTRAINT "document_answers_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "document_conversions" DROP CONSTRAINT "document_conversions_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "document_uploads" DROP CONSTRAINT "document_uploads_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "application_pdfs" DROP CONSTRAINT "application_pdfs_user_id_users_id_fk";--> statement-breakpoint
-- The application's own id, backfilled with its applicant's id; new applications draw a random one.
ALTER TABLE "applications" ADD COLUMN "id" uuid;--> statement-breakpoint
UPDATE "applications" SET "id" = "user_id";--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "id" SET DEFAULT gen_random_uuid();--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" DROP CONSTRAINT "applications_pkey";--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_pkey" PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "round_code" text DEFAULT 'DEFAULT' NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ALTER COLUMN "round_code" DROP DEFAULT;--> statement-breakpoint
-- An existing application becomes its applicant's current one: chosen when it was created.
ALTER TABLE "applications" ADD COLUMN "chosen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "applications" SET "chosen_at" = "created_at";--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_round_code_rounds_code_fk" FOREIGN KEY ("round_code") REFERENCES "public"."rounds"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_user_round_unique" UNIQUE("user_id","round_code");--> statement-breakpoint
CREATE INDEX "applications_user_chosen_idx" ON "applications" USING btree ("user_id","chosen_at" DESC NULLS LAST);--> statement-breakpoint
-- The staff list's indexes end with the application's id (the list's tie-break and its row id).
DROP INDEX "applications_staff_status_idx";--> statement-breakpoint
DROP INDEX "applications_staff_sort_name_idx";--> statement-breakpoint
DROP INDEX "applications_staff_submitted_idx";--> statement-breakpoint
CREATE INDEX "applications_staff_status_idx" ON "applications" USING btree ("staff_status","submitted_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "applications_staff_sort_name_idx" ON "applications" USING btree ("staff_sort_name","id");--> statement-breakpoint
CREATE INDEX "applications_staff_submitted_idx" ON "applications" USING btree ("submitted_at" DESC NULLS LAST,"id");--> statement-breakpoint
-- Keyed by the application: renamed, the values unchanged (each application's id is its
-- applicant's id), and deleted with the application.
ALTER TABLE "document_answers" RENAME COLUMN "user_id" TO "application_id";--> statement-breakpoint
ALTER TABLE "document_conversions" RENAME COLUMN "user_id" TO "application_id";--> statement-breakpoint
ALTER TABLE "document_uploads" RENAME COLUMN "user_id" TO "application_id";--> statement-breakpoint
ALTER TABLE "application_pdfs" RENAME COLUMN "user_id" TO "application_id";--> statement-breakpoint
ALTER TABLE "document_answers" RENAME CONSTRAINT "document_answers_user_id_answer_key_pk" TO "document_answers_application_id_answer_key_pk";--> statement-breakpoint
ALTER TABLE "document_conversions" RENAME CONSTRAINT "document_conversions_user_id_answer_key_pk" TO "document_conversions_application_id_answer_key_pk";--> statement-breakpoint
ALTER TABLE "application_pdfs" RENAME CONSTRAINT "application_pdfs_user_id_audience_pk" TO "application_pdfs_application_id_audience_pk";--> statement-breakpoint
ALTER INDEX "document_uploads_user_idx" RENAME TO "document_uploads_application_idx";--> statement-breakpoint
ALTER TABLE "document_answers" ADD CONSTRAINT "document_answers_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_conversions" ADD CONSTRAINT "document_conversions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_uploads" ADD CONSTRAINT "document_uploads_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_pdfs" ADD CONSTRAINT "application_pdfs_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The read audit names the application read (before rounds it named the applicant, whose id is
-- now that application's). No foreign key, as before: the trail outlives the application.
ALTER TABLE "service_audit" RENAME COLUMN "user_id" TO "application_id";--> statement-breakpoint
ALTER INDEX "service_audit_user_idx" RENAME TO "service_audit_application_idx";
