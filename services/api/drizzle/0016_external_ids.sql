ALTER TABLE "staff_api_keys" DROP CONSTRAINT "staff_api_keys_scope_check";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_external_id_unique" UNIQUE("external_id");--> statement-breakpoint
ALTER TABLE "staff_api_keys" ADD CONSTRAINT "staff_api_keys_scope_check" CHECK ("staff_api_keys"."scope" IN ('read', 'export', 'write-ids'));