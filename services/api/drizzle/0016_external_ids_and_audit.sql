ALTER TABLE "checklist_audit" DROP CONSTRAINT "checklist_audit_action_check";--> statement-breakpoint
ALTER TABLE "service_audit" DROP CONSTRAINT "service_audit_action_check";--> statement-breakpoint
ALTER TABLE "staff_api_keys" DROP CONSTRAINT "staff_api_keys_scope_check";--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "external_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "applications_external_id_idx" ON "applications" USING btree (upper("external_id"));--> statement-breakpoint
ALTER TABLE "checklist_audit" ADD CONSTRAINT "checklist_audit_action_check" CHECK ("checklist_audit"."action" IN ('request', 'waiver', 'link-sent', 'link-opened', 'letter-submitted', 'reminder-sent', 'material-received', 'recommender-changed', 'recommender-removed'));--> statement-breakpoint
ALTER TABLE "service_audit" ADD CONSTRAINT "service_audit_action_check" CHECK ("service_audit"."action" IN ('print-view', 'pdf', 'checklist'));--> statement-breakpoint
ALTER TABLE "staff_api_keys" ADD CONSTRAINT "staff_api_keys_scope_check" CHECK ("staff_api_keys"."scope" IN ('read', 'export', 'write-ids'));